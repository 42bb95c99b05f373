package db

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/migrations"
)

var migrationName = regexp.MustCompile(`^(\d{4})_([a-z0-9_]+)\.(up|down)\.sql$`)

// Migration is one numbered schema step.
type Migration struct {
	Version int
	Name    string
	Up      string
	Down    string
}

// Migrations lists the embedded migrations in order.
func Migrations() ([]Migration, error) { return load(migrations.FS) }

func load(fsys fs.FS) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	byVersion := map[int]*Migration{}
	for _, e := range entries {
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		v, _ := strconv.Atoi(m[1])
		body, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", e.Name(), err)
		}
		mig := byVersion[v]
		if mig == nil {
			mig = &Migration{Version: v, Name: m[2]}
			byVersion[v] = mig
		}
		if m[3] == "up" {
			mig.Up = string(body)
		} else {
			mig.Down = string(body)
		}
	}
	out := make([]Migration, 0, len(byVersion))
	for _, m := range byVersion {
		if m.Up == "" || m.Down == "" {
			return nil, fmt.Errorf("migration %04d_%s needs both up and down files", m.Version, m.Name)
		}
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// lockID is the advisory lock that serialises concurrent migrators.
const lockID = 7_201_944_311

// lockPoll is how long a migrator waits between tries of the lock. It tries rather
// than blocks: a session blocked in pg_advisory_lock holds a snapshot, and CREATE
// INDEX CONCURRENTLY in the holder would wait for that snapshot to end (a deadlock).
const lockPoll = 100 * time.Millisecond

const recordUp = `INSERT INTO schema_migrations(version, name) VALUES ($1, $2)`

// MigrateUp applies every pending migration, each in its own transaction (or, for a
// no-transaction file, statement by statement). It is safe to run twice, from
// several processes at once, and while the previous release serves (docs/upgrades.md).
func MigrateUp(ctx context.Context, pool *pgxpool.Pool) (applied int, err error) {
	migs, err := Migrations()
	if err != nil {
		return 0, err
	}
	err = withLock(ctx, pool, func(conn *pgxpool.Conn) error {
		done, err := appliedVersions(ctx, conn)
		if err != nil {
			return err
		}
		for _, m := range migs {
			if done[m.Version] {
				continue
			}
			if err := runStep(ctx, conn, m.Up, recordUp, m.Version, m.Name); err != nil {
				return fmt.Errorf("migration %04d_%s up: %w", m.Version, m.Name, err)
			}
			slog.InfoContext(ctx, "migration applied", "version", m.Version, "name", m.Name)
			applied++
		}
		return nil
	})
	return applied, err
}

// MigrateDown reverts the newest `steps` applied migrations (all when steps <= 0).
func MigrateDown(ctx context.Context, pool *pgxpool.Pool, steps int) (reverted int, err error) {
	migs, err := Migrations()
	if err != nil {
		return 0, err
	}
	err = withLock(ctx, pool, func(conn *pgxpool.Conn) error {
		done, err := appliedVersions(ctx, conn)
		if err != nil {
			return err
		}
		for i := len(migs) - 1; i >= 0; i-- {
			m := migs[i]
			if !done[m.Version] {
				continue
			}
			if steps > 0 && reverted >= steps {
				break
			}
			err := runStep(ctx, conn, m.Down, `DELETE FROM schema_migrations WHERE version = $1`, m.Version)
			if err != nil {
				return fmt.Errorf("migration %04d_%s down: %w", m.Version, m.Name, err)
			}
			slog.InfoContext(ctx, "migration reverted", "version", m.Version, "name", m.Name)
			reverted++
		}
		return nil
	})
	return reverted, err
}

// runStep runs one migration file and its schema_migrations record: together in one
// transaction, or, for a no-transaction file, each statement on its own and the
// record last (a file interrupted half way runs again from its start: its statements
// are idempotent, see TestMigrationsExpandContract).
func runStep(ctx context.Context, conn *pgxpool.Conn, sql, record string, args ...any) error {
	if !NoTransaction(sql) {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, record, args...)
			return err
		})
	}
	for _, st := range Statements(sql) {
		if err := dropInvalidIndex(ctx, conn, st); err != nil {
			return err
		}
		if _, err := conn.Exec(ctx, st); err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
	}
	if _, err := conn.Exec(ctx, record, args...); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

var concurrentIndex = regexp.MustCompile(`(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+([\w.]+)\s`)

// dropInvalidIndex drops the index a CREATE INDEX CONCURRENTLY IF NOT EXISTS
// statement makes when it exists but is INVALID: a concurrent build that failed (a
// duplicate, a cancel, a crash) leaves one behind, and IF NOT EXISTS alone would keep
// it. Under the migration lock no other build is in progress, so an invalid index
// is such a leftover.
func dropInvalidIndex(ctx context.Context, conn *pgxpool.Conn, stmt string) error {
	m := concurrentIndex.FindStringSubmatch(stmt)
	if m == nil {
		return nil
	}
	var invalid bool
	err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_index
		WHERE indexrelid = to_regclass($1) AND NOT indisvalid)`, m[1]).Scan(&invalid)
	if err != nil {
		return fmt.Errorf("check index %s: %w", m[1], err)
	}
	if !invalid {
		return nil
	}
	slog.WarnContext(ctx, "migration: rebuilding an invalid index", "index", m[1])
	if _, err := conn.Exec(ctx, "DROP INDEX CONCURRENTLY IF EXISTS "+m[1]); err != nil {
		return fmt.Errorf("drop invalid index %s: %w", m[1], err)
	}
	return nil
}

// Version returns the newest applied migration version (0 when none).
func Version(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	var v int
	err := pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

func withLock(ctx context.Context, pool *pgxpool.Pool, fn func(*pgxpool.Conn) error) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire connection: %w", err)
	}
	defer conn.Release()
	if err := tryLock(ctx, conn); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockID) //nolint:errcheck
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	return fn(conn)
}

// tryLock takes the migration lock, trying every lockPoll until ctx ends.
func tryLock(ctx context.Context, conn *pgxpool.Conn) error {
	for {
		var got bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, lockID).Scan(&got); err != nil {
			return fmt.Errorf("migration lock: %w", err)
		}
		if got {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("migration lock: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

func appliedVersions(ctx context.Context, conn *pgxpool.Conn) (map[int]bool, error) {
	rows, err := conn.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("read schema_migrations: %w", err)
	}
	vs, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return nil, fmt.Errorf("read schema_migrations: %w", err)
	}
	out := make(map[int]bool, len(vs))
	for _, v := range vs {
		out[v] = true
	}
	return out, nil
}

// NoTransactionMarker, as the first line of a migration file, makes the runner apply
// the file's statements one by one outside a transaction: CREATE INDEX CONCURRENTLY
// and DROP INDEX CONCURRENTLY cannot run inside one. Such a file holds plain
// statements, each ending with a semicolon at the end of a line (no dollar-quoted
// bodies), and each idempotent (docs/upgrades.md).
const NoTransactionMarker = "-- migrate: " + noTransaction

const noTransaction = "no-transaction"

// ContractMarker, as a leading line of a migration file followed by the names of
// the objects it removes or changes incompatibly, marks a contract step: allowed
// only once the previous release no longer names those objects (docs/upgrades.md).
const ContractMarker = "-- migrate: contract"

// Markers returns the `-- migrate:` lines a migration file starts with, without
// their prefix ("no-transaction", "contract users.legacy_flag").
func Markers(sql string) []string {
	var out []string
	for _, line := range strings.Split(sql, "\n") {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "-- migrate:")
		if !ok {
			break
		}
		out = append(out, strings.TrimSpace(rest))
	}
	return out
}

// NoTransaction reports whether a migration file carries NoTransactionMarker.
func NoTransaction(sql string) bool {
	for _, m := range Markers(sql) {
		if m == noTransaction {
			return true
		}
	}
	return false
}

// Statements splits a no-transaction file into its statements: a statement ends
// with a line whose last character is a semicolon; comment lines are left out.
func Statements(sql string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(sql, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		if cur.Len() > 0 {
			cur.WriteByte('\n')
		}
		cur.WriteString(t)
		if strings.HasSuffix(t, ";") {
			out = append(out, strings.TrimSuffix(cur.String(), ";"))
			cur.Reset()
		}
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}
