module github.com/chapar/chapar/sdk/go

go 1.22
