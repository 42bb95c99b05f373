package config

import (
	"strings"
	"testing"
	"time"
)

func TestDatabaseRoutes(t *testing.T) {
	for _, k := range []string{"DATABASE_POOLER", "DATABASE_DIRECT_URL", "DATABASE_REPLICA_URL", "REPLICA_MAX_LAG", "REPLICA_WAIT"} {
		t.Setenv(k, "")
	}
	c, err := Load()
	if err != nil || c.Database != (DatabaseRoutes{ReplicaMaxLag: 5 * time.Second, ReplicaWait: 250 * time.Millisecond}) {
		t.Fatalf("defaults: %+v, %v", c.Database, err)
	}
	if s := c.DB(); s.Pooled() || s.URL != c.DatabaseURL {
		t.Fatalf("settings without a pooler: %+v", s)
	}
	t.Setenv("DATABASE_POOLER", "pgbouncer")
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), "DATABASE_DIRECT_URL") {
		t.Fatalf("a pooler without a direct URL: err %v, want a DATABASE_DIRECT_URL error", err)
	}
	t.Setenv("DATABASE_DIRECT_URL", "postgres://primary:5432/chapar")
	t.Setenv("DATABASE_REPLICA_URL", "postgres://replica:5432/chapar")
	t.Setenv("REPLICA_MAX_LAG", "2s")
	if c, err = Load(); err != nil {
		t.Fatal(err)
	}
	s := c.DB()
	if !s.Pooled() || s.DirectURL != "postgres://primary:5432/chapar" || s.ReplicaURL != "postgres://replica:5432/chapar" ||
		s.ReplicaMaxLag != 2*time.Second {
		t.Fatalf("settings: %+v", s)
	}
	t.Setenv("DATABASE_POOLER", "pgpool")
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), "DATABASE_POOLER") {
		t.Fatalf("an unknown pooler: err %v", err)
	}
}
