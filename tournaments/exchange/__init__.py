"""A tournament in the files other software reads: FIDE TRF-16 (``trf``) and the
versioned JSON archive (``archive`` writes it, ``archive_import`` reads it back)."""
