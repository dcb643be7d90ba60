//go:build !unix

package main

// noFollowNoBlock is empty where the system has no such open flags; the
// check with os.SameFile after opening still refuses a swapped file.
const noFollowNoBlock = 0
