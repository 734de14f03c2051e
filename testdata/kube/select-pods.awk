# Prints the pods of a pretty-printed `kubectl get pods -o json` List whose names are in the
# comma-separated `names` (",a,b,"): a List of them, or the one Pod alone, as kubectl does.
# Items are found as the blocks between lines of 8 spaces + "{" and 8 spaces + "}" or "},".
/^        \{$/ { inside = 1; block = ""; name = "" }
inside {
  block = block $0 "\n"
  if (name == "" && match($0, /"name": "[^"]*"/) && $0 ~ /^                "name"/)
    name = substr($0, RSTART + 9, RLENGTH - 10)
}
/^        \},?$/ && inside {
  inside = 0
  if (index(names, "," name ",")) { picked[++n] = block }
}
END {
  if (n == 1) {
    b = picked[1]
    sub(/,\n$/, "\n", b)
    printf "%s", b
    exit
  }
  print "{\n    \"apiVersion\": \"v1\",\n    \"items\": ["
  for (i = 1; i <= n; i++) {
    b = picked[i]
    sub(/,?\n$/, (i < n ? ",\n" : "\n"), b)
    printf "%s", b
  }
  print "    ],\n    \"kind\": \"List\"\n}"
}
