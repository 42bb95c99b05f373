// Package testenv gives integration tests their own real PostgreSQL database and
// Redis database, and removes them afterwards. It never touches data it did not
// create: a database is created under a random name and dropped at the end, and a
// Redis logical database is used only when it is empty (or was left by a crashed run
// of these tests, which marks its databases).
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/platform/db"
)

// AdminURL is the server the test databases are created on (TEST_DATABASE_URL).
func AdminURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// RedisAddr is the Redis server tests use (TEST_REDIS_ADDR, else REDIS_ADDR).
func RedisAddr() string {
	for _, k := range []string{"TEST_REDIS_ADDR", "REDIS_ADDR"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "127.0.0.1:6379"
}

// PoolerURL is a PgBouncer in transaction mode in front of TEST_DATABASE_URL's
// server that passes any database name through (TEST_POOLER_URL; empty: none).
// With it, a test database's Pool goes through the pooler (scripts/pooler-test.sh).
func PoolerURL() string { return os.Getenv("TEST_POOLER_URL") }

// Database is a fresh, migrated database.
type Database struct {
	// Pool is the test's pool: through TEST_POOLER_URL when set, else Direct.
	Pool *pgxpool.Pool
	// Direct goes straight to the server, for the work that needs a session of
	// its own (db.Settings.OpenSession).
	Direct *pgxpool.Pool
	URL    string
	Name   string
}

// Postgres creates a migrated database for the test (or TestMain) and drops it on cleanup.
func Postgres(tb testing.TB) Database {
	tb.Helper()
	d, cleanup, err := NewDatabase(context.Background(), true)
	if err != nil {
		tb.Fatalf("testenv: %v", err)
	}
	tb.Cleanup(cleanup)
	return d
}

// NewDatabase creates a database (migrated when migrate is true); the cleanup drops it.
func NewDatabase(ctx context.Context, migrate bool) (Database, func(), error) {
	admin, err := db.Open(ctx, AdminURL())
	if err != nil {
		return Database{}, nil, err
	}
	name := "chapar_test_" + randHex(6)
	tpl, err := gisTemplate(ctx, admin)
	if err != nil {
		admin.Close()
		return Database{}, nil, err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tpl); err != nil {
		admin.Close()
		return Database{}, nil, fmt.Errorf("create database: %w", err)
	}
	u, _ := url.Parse(AdminURL())
	u.Path = "/" + name
	d := Database{URL: u.String(), Name: name}
	drop := func() {
		if d.Pool != nil && d.Pool != d.Direct {
			d.Pool.Close()
		}
		if d.Direct != nil {
			d.Direct.Close()
		}
		_, _ = admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		admin.Close()
	}
	if d.Direct, err = db.Open(ctx, d.URL); err != nil {
		drop()
		return Database{}, nil, err
	}
	d.Pool = d.Direct
	if migrate {
		if _, err := db.MigrateUp(ctx, d.Direct); err != nil {
			drop()
			return Database{}, nil, err
		}
	}
	if err := d.throughPooler(ctx); err != nil {
		drop()
		return Database{}, nil, err
	}
	return d, drop, nil
}

// throughPooler points Pool at the database through TEST_POOLER_URL, when set;
// the database then turns JIT off itself (a pooler refuses it at connection).
func (d *Database) throughPooler(ctx context.Context) error {
	if PoolerURL() == "" {
		return nil
	}
	if _, err := d.Direct.Exec(ctx, "ALTER DATABASE "+d.Name+" SET jit = off"); err != nil {
		return fmt.Errorf("pooled database: %w", err)
	}
	u, err := url.Parse(PoolerURL())
	if err != nil {
		return fmt.Errorf("TEST_POOLER_URL: %w", err)
	}
	u.Path = "/" + d.Name
	p, err := db.Settings{URL: u.String(), Pooler: db.PoolerPgBouncer}.Open(ctx)
	if err != nil {
		return fmt.Errorf("pooled database: %w", err)
	}
	d.Pool = p
	return nil
}

// gisTemplateName is a database holding only the postgis extension: test databases
// are copied from it, since CREATE EXTENSION postgis costs about 0.6 s each time
// and copying it costs nothing measurable.
const gisTemplateName = "chapar_test_template_gis"

var (
	gisOnce sync.Once
	gisErr  error
)

// gisTemplate makes the template once per server (under an advisory lock, so
// parallel test binaries wait for the first) and returns its name.
func gisTemplate(ctx context.Context, admin *pgxpool.Pool) (string, error) {
	gisOnce.Do(func() { gisErr = makeGisTemplate(ctx, admin) })
	return gisTemplateName, gisErr
}

func makeGisTemplate(ctx context.Context, admin *pgxpool.Pool) error {
	conn, err := admin.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	const lock = 7_204_118_001 // any constant of this package's own
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lock); err != nil {
		return fmt.Errorf("template lock: %w", err)
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", lock) //nolint:errcheck
	var ready bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate)`,
		gisTemplateName).Scan(&ready); err != nil || ready {
		return err
	}
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+gisTemplateName+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("template: %w", err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+gisTemplateName); err != nil {
		return fmt.Errorf("template: %w", err)
	}
	u, _ := url.Parse(AdminURL())
	u.Path = "/" + gisTemplateName
	tpl, err := pgx.Connect(ctx, u.String())
	if err != nil {
		return fmt.Errorf("template: %w", err)
	}
	_, err = tpl.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS postgis")
	tpl.Close(ctx)
	if err != nil {
		return fmt.Errorf("template: postgis (install postgresql-15-postgis-3, `make services` does): %w", err)
	}
	_, err = conn.Exec(ctx, "ALTER DATABASE "+gisTemplateName+" WITH IS_TEMPLATE true")
	return err
}

// Redis is a claimed logical database of the test Redis server.
type Redis struct {
	Addr   string
	DB     int
	Client *redis.Client
}

const (
	claimPrefix = "chapar:testenv:claim:"
	markerKey   = "chapar:testenv:marker"
)

// RedisDB claims an empty logical database for the test and flushes it on cleanup.
func RedisDB(tb testing.TB) Redis {
	tb.Helper()
	r, cleanup, err := NewRedis(context.Background())
	if err != nil {
		tb.Fatalf("testenv: %v", err)
	}
	tb.Cleanup(cleanup)
	return r
}

// NewRedis claims a logical database (1–15); the cleanup flushes and releases it.
func NewRedis(ctx context.Context) (Redis, func(), error) {
	addr := RedisAddr()
	ctl := redis.NewClient(&redis.Options{Addr: addr, DB: 0})
	if err := ctl.Ping(ctx).Err(); err != nil {
		ctl.Close()
		return Redis{}, nil, fmt.Errorf("redis %s: %w", addr, err)
	}
	for n := 1; n <= 15; n++ {
		ok, err := ctl.SetNX(ctx, fmt.Sprint(claimPrefix, n), os.Getpid(), 30*time.Minute).Result()
		if err != nil {
			ctl.Close()
			return Redis{}, nil, fmt.Errorf("claim redis db: %w", err)
		}
		if !ok {
			continue
		}
		c := redis.NewClient(&redis.Options{Addr: addr, DB: n})
		size, err := c.DBSize(ctx).Result()
		marked := c.Exists(ctx, markerKey).Val() == 1
		if err != nil || (size > 0 && !marked) {
			c.Close()
			ctl.Del(ctx, fmt.Sprint(claimPrefix, n))
			continue
		}
		if marked {
			c.FlushDB(ctx)
		}
		c.Set(ctx, markerKey, "1", 0)
		release := func() {
			c.FlushDB(context.Background())
			c.Close()
			ctl.Del(context.Background(), fmt.Sprint(claimPrefix, n))
			ctl.Close()
		}
		return Redis{Addr: addr, DB: n, Client: c}, release, nil
	}
	ctl.Close()
	return Redis{}, nil, fmt.Errorf("no free redis database on %s", addr)
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
