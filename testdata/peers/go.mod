module github.com/rootsgen/rootsgen/testdata/peers

go 1.26.0

require (
	github.com/rootsgen/rootsgen v0.0.0-00010101000000-000000000000
	golang.org/x/mod v0.42.0
)

require (
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	golang.org/x/exp/typeparams v0.0.0-20231108232855-2478ac86f678 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	honnef.co/go/tools v0.8.2 // indirect
)

replace github.com/rootsgen/rootsgen => ../..

tool honnef.co/go/tools/cmd/staticcheck
