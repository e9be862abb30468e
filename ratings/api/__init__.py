"""The world ranking's REST API (read-only): ``views`` (lists, months, a player's
history and the results a number counted), their ``serializers``, and the list as CSV
(``csv_export``)."""
