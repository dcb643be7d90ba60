package main

import "flag"

var update = flag.Bool("update", false, "rewrite the transcripts in testdata/transcripts")
