// Command linkcodes prints the short codes of a send's recipients (slot 0), one a
// line, for the link redirect benchmark (scripts/bench-links.sh). It waits for the
// send's expansion and reads the settings the binaries read (pkg/config).
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/shortlink"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "linkcodes:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) != 2 {
		return fmt.Errorf("usage: linkcodes SEND_ID")
	}
	sendID, err := strconv.ParseInt(os.Args[1], 10, 64)
	if err != nil {
		return err
	}
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pool, err := pgxpool.New(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	for expanded := false; !expanded; time.Sleep(200 * time.Millisecond) {
		if err := pool.QueryRow(ctx, `SELECT expanded_at IS NOT NULL FROM sends WHERE id = $1`, sendID).Scan(&expanded); err != nil {
			return fmt.Errorf("send %d: %w", sendID, err)
		}
	}
	rows, err := pool.Query(ctx, `SELECT id FROM recipients WHERE send_id = $1 ORDER BY id`, sendID)
	if err != nil {
		return err
	}
	defer rows.Close()
	codec := shortlink.New(cfg.ShortLinkBase, cfg.TokenSecret)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		fmt.Println(codec.Code(id, 0))
	}
	return rows.Err()
}
