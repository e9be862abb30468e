-- wrk script of bench/pages.py: prints one RESULT line of JSON when wrk is done.
--
-- With the argument "bust" (wrk ... -s pages.lua URL -- bust THREADS) every request adds a
-- parameter of its own to the URL ("_=thread-n"), so that each is a miss of the server's
-- cache.
--
-- With arguments (wrk ... -s pages.lua URL -- BODIES FIRST LAST THREADS) every request is a
-- POST of its own body: thread t of n sends lines FIRST + t, FIRST + t + n, ... of the
-- file BODIES (one JSON submission per line, each a distinct match: a duplicate would
-- be refused with 409 and measure nothing). Past line LAST a thread sends "{}", which
-- the API refuses with 400, so running out of bodies shows as errors, never as speed.

-- With arguments (wrk ... -s pages.lua URL -- paths FILE FIRST LAST THREADS) every request
-- is a GET of a path of its own: thread t of n asks lines FIRST + t, FIRST + t + n, ... of
-- FILE (one path a line, each naming a different object), starting again at FIRST + t past
-- LAST (bench/pages_cold.py: a random object each request).

local threads = 0

function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  if args[1] == nil then
    return
  end
  if args[1] == "bust" then
    -- every request its own URL: a miss of the server's cache each time
    bust = 0
    return
  end
  if args[1] == "paths" then
    paths = {}
    local n = 0
    local first, last = tonumber(args[3]), tonumber(args[4])
    for line in io.lines(args[2]) do
      n = n + 1
      if n >= first and n <= last then
        paths[#paths + 1] = line
      end
    end
    step = tonumber(args[5])
    nxt = 1 + id
    return
  end
  bodies = {}
  for line in io.lines(args[1]) do
    bodies[#bodies + 1] = line
  end
  nxt = tonumber(args[2]) + id
  last = tonumber(args[3])
  step = tonumber(args[4])
end

function request()
  if bust ~= nil then
    bust = bust + 1
    local sep = string.find(wrk.path, "?", 1, true) and "&" or "?"
    return wrk.format(nil, wrk.path .. sep .. "_=" .. id .. "-" .. bust)
  end
  if paths ~= nil then
    local path = paths[nxt]
    nxt = nxt + step
    if nxt > #paths then
      nxt = 1 + id
    end
    return wrk.format(nil, path)
  end
  if bodies == nil then
    return wrk.request()
  end
  local body = "{}"
  if nxt <= last then
    body = bodies[nxt]
  end
  nxt = nxt + step
  return wrk.format("POST", nil, nil, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "duration_us": %d, "connect": %d, "read": %d, "write": %d, '
      .. '"status": %d, "timeout": %d, "p50_us": %d, "p95_us": %d, "p99_us": %d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)
  ))
end
