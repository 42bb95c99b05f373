// Command gen writes the panel's copy of the numbering plan to the file it is given.
package main

import (
	"log"
	"os"

	"github.com/chapar/chapar/pkg/numbering"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: gen FILE")
	}
	if err := os.WriteFile(os.Args[1], []byte(numbering.TypeScript()), 0o644); err != nil {
		log.Fatal(err)
	}
}
