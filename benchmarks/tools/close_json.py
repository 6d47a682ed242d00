#!/usr/bin/env python3
# A Google Benchmark run stopped by a time limit (the GPU machine's calls last at most
# 10 minutes) before it closed its JSON: every entry written is complete, only the
# closing "]" and "}" are missing. Prints the file with them added (no entry changed).
#   close_json.py sort.partial.json > sort.json
import json, sys
text = open(sys.argv[1]).read().rstrip()
if not text.endswith('}\n  ]\n}') and not text.endswith(']\n}'):
    text += '\n  ]\n}'
json.loads(text)  # a valid document, or this fails
print(text)
