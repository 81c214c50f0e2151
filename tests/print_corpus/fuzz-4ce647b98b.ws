ws-dump-format:
