// Package migrations embeds the numbered SQL schema migrations (NNNN_name.up.sql and
// NNNN_name.down.sql). internal/platform/db applies them; see the `migrate` command of cmd/api.
package migrations

import "embed"

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS
