package config

import (
	"fmt"
	"time"

	"github.com/chapar/chapar/internal/platform/db"
)

// DatabaseRoutes are the database settings beyond DATABASE_URL.
type DatabaseRoutes struct {
	// Pooler is "pgbouncer" when DATABASE_URL is a transaction pooler
	// (DATABASE_POOLER; empty: DATABASE_URL is the primary itself).
	Pooler string
	// DirectURL is the primary itself, for migrations and the jobs that hold a
	// session lock (DATABASE_DIRECT_URL, `_FILE`; empty: DATABASE_URL).
	DirectURL string
	// ReplicaURL is a streaming replica the reports, exports, archive and
	// dashboard charts read from (DATABASE_REPLICA_URL, `_FILE`; empty: none).
	ReplicaURL string
	// ReplicaMaxLag is the lag past which reads leave the replica
	// (REPLICA_MAX_LAG, 5s) and ReplicaWait how long one read waits for the
	// replica to catch up with the primary before reading the primary
	// (REPLICA_WAIT, 250ms).
	ReplicaMaxLag, ReplicaWait time.Duration
}

// loadDatabaseRoutes reads the DATABASE_POOLER, DATABASE_DIRECT_URL,
// DATABASE_REPLICA_URL, REPLICA_MAX_LAG and REPLICA_WAIT settings.
func loadDatabaseRoutes() (DatabaseRoutes, error) {
	r := DatabaseRoutes{Pooler: env("DATABASE_POOLER", ""), DirectURL: secret("DATABASE_DIRECT_URL", ""),
		ReplicaURL: secret("DATABASE_REPLICA_URL", "")}
	var err error
	if r.ReplicaMaxLag, err = envDuration("REPLICA_MAX_LAG", 5*time.Second); err != nil {
		return r, err
	}
	if r.ReplicaWait, err = envDuration("REPLICA_WAIT", 250*time.Millisecond); err != nil {
		return r, err
	}
	return r, nil
}

// check refuses a pooler it does not know, and a pooler without a direct URL
// for the work that needs a session of its own.
func (r DatabaseRoutes) check() error {
	switch r.Pooler {
	case "":
	case db.PoolerPgBouncer:
		if r.DirectURL == "" {
			return fmt.Errorf("config DATABASE_POOLER=%s: set DATABASE_DIRECT_URL to the primary itself (migrations and session locks cannot go through a transaction pooler)", r.Pooler)
		}
	default:
		return fmt.Errorf("config DATABASE_POOLER %q: use %s or leave it empty", r.Pooler, db.PoolerPgBouncer)
	}
	return nil
}

// DB is where the process's database connections go.
func (c Config) DB() db.Settings {
	return db.Settings{URL: c.DatabaseURL, Pooler: c.Database.Pooler, DirectURL: c.Database.DirectURL,
		ReplicaURL: c.Database.ReplicaURL, ReplicaMaxLag: c.Database.ReplicaMaxLag, ReplicaWait: c.Database.ReplicaWait}
}
