//go:build unix

package main

import "syscall"

// noFollowNoBlock makes opening a file that was swapped, after it was
// checked, for a link or a FIFO fail or return at once instead of
// following the link or waiting for a writer.
const noFollowNoBlock = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
