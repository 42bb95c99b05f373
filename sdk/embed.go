// Package sdk embeds the client libraries (php/, python/, js/, go/; docs/sdk.md) so
// that the API serves each as a zip from the developers' documentation page.
package sdk

import (
	"embed"
	"io/fs"
)

//go:embed php python js go
var files embed.FS

// Files returns the libraries' files, each under its folder (php/, python/, js/, go/).
func Files() fs.FS { return files }
