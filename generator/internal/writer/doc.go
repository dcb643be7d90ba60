// Package writer puts generated files on disk as one change: it compares
// them with what an output directory holds (Diff) and replaces the files
// rootsgen wrote there with them (Write, WriteContext), under a lock, with
// a journal that the next run completes if this one is killed, and with
// every step undone if one fails. A file's name may name a file in a
// subdirectory, so that one change covers a kit's tree of packages. The
// generator's Diff, Write and WriteContext are this package's, and say
// what each promises.
package writer

// File is one generated file: its path relative to the output directory,
// with "/" as separator, and its content.
type File struct {
	Name    string
	Content []byte
}
