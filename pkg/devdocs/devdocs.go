// Package devdocs is the developers' platform's reference data (docs/developers.md):
// the OpenAPI 3.1 document of the public API (openapi.json, embedded and served as
// is) and the catalogue of integrations (plugins) the panel lists.
package devdocs

import _ "embed"

//go:embed openapi.json
var document []byte

// OpenAPI returns the OpenAPI 3.1 document of the public API (callers must not
// change the slice).
func OpenAPI() []byte { return document }
