package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	ossignal "os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/send"
)

// A journal records its claims' starts; while its gateway lives (the file
// locked) no other gateway reads it; once the lock is gone (the process died)
// one reads its claims and removes it, and a journal of another database is
// left alone.
func TestJournalRecoversOnlyDeadOnes(t *testing.T) {
	dir := t.TempDir()
	scope, other := journalScope("db-a"), journalScope("db-b")
	live, err := openJournal(dir, "gw/live", scope)
	if err != nil {
		t.Fatal(err)
	}
	defer live.close()
	dead, err := openJournal(dir, "gw-dead", scope)
	if err != nil {
		t.Fatal(err)
	}
	s1, s2, s3 := dead.take(11), dead.take(12), dead.take(13)
	s1.start(5)
	s2.start(40)
	dead.release(s3) // a finished claim: not in the journal
	foreign, err := openJournal(dir, "gw-foreign", other)
	if err != nil {
		t.Fatal(err)
	}
	foreign.take(99).start(3)
	var got []journalClaim
	lower := func(_ context.Context, c []journalClaim) (int, error) { got = append(got, c...); return len(c), nil }

	files, _, err := recoverJournals(context.Background(), dir, scope, live, lower)
	if err != nil || files != 0 || got != nil {
		t.Fatalf("every gateway alive: read %d journals, claims %v, err %v", files, got, err)
	}
	// The dead ones "die": their mappings and descriptors go (the kernel frees
	// the lock with the last of them) and the files stay.
	for _, j := range []*journal{dead, foreign} {
		_ = syscall.Munmap(j.mem)
		_ = j.f.Close()
	}
	files, spared, err := recoverJournals(context.Background(), dir, scope, live, lower)
	if err != nil || files != 1 || spared != 2 {
		t.Fatalf("read %d journals (%d spared), err %v; want the dead one", files, spared, err)
	}
	slices.SortFunc(got, func(a, b journalClaim) int { return int(a.ID - b.ID) })
	if want := []journalClaim{{11, 5}, {12, 40}}; !slices.Equal(got, want) {
		t.Fatalf("claims %v, want %v", got, want)
	}
	if _, err := os.Stat(dead.name); !os.IsNotExist(err) {
		t.Fatalf("the dead gateway's journal is still there: %v", err)
	}
	for _, j := range []*journal{live, foreign} {
		if _, err := os.Stat(j.name); err != nil {
			t.Fatalf("%s: %v", filepath.Base(j.name), err)
		}
	}
	// A dead journal of another database goes once a week old; a live one stays.
	old := time.Now().Add(-journalStaleAfter - time.Hour)
	for _, j := range []*journal{live, foreign} {
		if err := os.Chtimes(j.name, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := recoverJournals(context.Background(), dir, scope, live, lower); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(foreign.name); !os.IsNotExist(err) {
		t.Fatalf("the stale journal of another database is still there: %v", err)
	}
	if _, err := os.Stat(live.name); err != nil {
		t.Fatalf("a live gateway's journal was removed: %v", err)
	}
}

// killChildEnv makes this test binary a gateway to be killed (TestKilledGatewayLeavesOnlyStartedUnknown).
const killChildEnv = "GATEWAY_KILL_CHILD"

// killChild is the child's configuration, passed as JSON in killChildEnv.
type killChild struct {
	DB, Redis, SMSC, Journal, Instance string
	RedisDB                            int
}

// runKillChild runs a gateway with a large first grant and a slow bind until
// it is killed.
func runKillChild(raw string) int {
	var c killChild
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, stop := ossignal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	pool, err := pgxpool.New(ctx, c.DB)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rdb := redis.NewClient(&redis.Options{Addr: c.Redis, DB: c.RedisDB})
	cfg := killChildConfig(c)
	g, err := New(cfg, Deps{Pool: pool, Redis: rdb, Asynq: asynq.RedisClientOpt{Addr: c.Redis, DB: c.RedisDB}, Log: testLogger()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// A grant of 600 at once: killed early, the gateway has started a small part of it.
	g.handler.chunk, g.handler.grantMin = 2000, 600
	if err := g.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// killChildConfig is testConfig with a slow, narrow bind and one batch at a time.
func killChildConfig(c killChild) Config {
	host, portText, _ := net.SplitHostPort(c.SMSC)
	port, _ := strconv.Atoi(portText)
	cfg := testConfig(host, port)
	cfg.Binds[0].Window, cfg.Binds[0].TPS = 10, 300
	cfg.Concurrency, cfg.CriticalConcurrency = 1, 1
	cfg.InstanceID, cfg.JournalDir = c.Instance, c.Journal
	return cfg
}

// A gateway killed (SIGKILL, in a process of its own) with most of a large
// grant not yet started leaves unknown only what it started: the next gateway
// on the host reads its journal, the sweeper's next pass queues the rest
// again, and everything is then sent exactly once.
func TestKilledGatewayLeavesOnlyStartedUnknown(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	const n = 1500
	sendID := e.createSend("hello from chapar", false, "sending")
	e.addRecipients(sendID, 1, n, 1, "98912", "mci", 1)
	e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"}, "")
	dir := t.TempDir()
	child := startKillChild(t, killChild{DB: e.db.URL, Redis: e.redis.Addr, RedisDB: e.redis.DB,
		SMSC: e.sim.Addr("mci"), Journal: dir, Instance: "killed-gw"})
	waitFor(t, 30*time.Second, "the child gateway submitting", func() bool { return e.sim.Stats().Total.Accepted >= 150 })
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	time.Sleep(300 * time.Millisecond) // what the kernel still had to send reaches the simulator
	accepted := int(e.sim.Stats().Total.Accepted)
	granted := e.count(`SELECT handed FROM recipient_claims WHERE send_id = $1`, sendID)

	// The next gateway on the host reads the dead one's journal as it starts.
	e.start(e.config(func(c *Config) { c.JournalDir = dir; c.Binds[0].TPS = 2000 }), nil)
	started := e.count(`SELECT handed FROM recipient_claims WHERE send_id = $1 AND renewed_at = '-infinity'`, sendID)
	if started < accepted || started > accepted+20 || granted < started+300 {
		t.Fatalf("claim lowered to %d started; the simulator had %d, the grant was %d", started, accepted, granted)
	}
	q := asynq.NewClient(e.asynqOpt())
	defer q.Close()
	ins := asynq.NewInspector(e.asynqOpt())
	defer ins.Close()
	did, err := send.New(e.db.Pool, jobs.Waker{Enqueuer: q, RDB: e.redis.Client}, nil, nil, 0, nil).
		Sweep(e.ctx(), ins, send.SweepConfig{Abandoned: time.Hour, Stalled: time.Hour, NoReceipt: 48 * time.Hour})
	if err != nil || did["requeued"] != n-started || did["batches_requeued"] != 1 {
		t.Fatalf("sweep did %v (err %v); want %d queued again", did, err, n-started)
	}
	waitFor(t, 60*time.Second, "every recipient final", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status IN (5, 7)`, sendID) == 0
	})
	unknown := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND unknown`, sendID)
	st := e.sim.Stats()
	if st.Duplicates != 0 || unknown > started || int(st.Total.Accepted) < n-unknown || int(st.Total.Accepted) > n {
		t.Fatalf("%d unknown (%d started), simulator accepted %d of %d with %d duplicates", unknown, started, st.Total.Accepted, n, st.Duplicates)
	}
	t.Logf("killed with %d accepted, %d started, %d granted: %d left unknown instead of %d", accepted, started, granted, unknown, granted)
}

func startKillChild(t *testing.T, c killChild) *exec.Cmd {
	t.Helper()
	raw, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+string(raw))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}
