module github.com/rootsgen/rootsgen/testdata/peers

go 1.26.0

require (
	github.com/rootsgen/rootsgen v0.0.0-00010101000000-000000000000
	golang.org/x/mod v0.42.0
)

replace github.com/rootsgen/rootsgen => ../..
