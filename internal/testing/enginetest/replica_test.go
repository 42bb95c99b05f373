package enginetest_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
)

// replicaSettings are the routing settings of a test database on the
// streaming replica of TEST_REPLICA_URL, with a generous wait for it to
// catch up (a safety net on a loaded machine).
func replicaSettings(t *testing.T, e *enginetest.Engine, wait time.Duration) db.Settings {
	t.Helper()
	u, err := url.Parse(os.Getenv("TEST_REPLICA_URL"))
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + e.DB.Name
	return db.Settings{ReplicaURL: u.String(), ReplicaMaxLag: 5 * time.Second, ReplicaWait: wait}
}

// openReads routes reads between the test's primary and the replica.
func openReads(t *testing.T, e *enginetest.Engine, wait time.Duration) *db.Reads {
	t.Helper()
	r, err := replicaSettings(t, e, wait).OpenReads(e.DB.Pool)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// sendAndFinish sends n numbers from the account and waits until every
// recipient is final; it returns the send's id.
func sendAndFinish(t *testing.T, e *enginetest.Engine, token, line string, n, from int) int64 {
	t.Helper()
	numbers := make([]string, n)
	for i := range numbers {
		numbers[i] = fmt.Sprintf("0912%07d", from+i)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "quick", "text": "گزارش از رونوشت",
		"sender": line, "numbers": numbers}, token).Decode(t, &a)
	e.Wait("every recipient final", time.Minute, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered+s.Undelivered == n
	})
	return a.ID
}

// sameReport reads the send's figures and first page of recipients through the
// routed reports and straight from the primary, and fails when they differ.
func sameReport(t *testing.T, e *enginetest.Engine, acct, id int64) report.Stats {
	t.Helper()
	ctx := context.Background()
	primary := report.New(e.DB.Pool)
	want, err := primary.Stats(ctx, acct, id)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Deps.Reports.Stats(ctx, acct, id)
	if err != nil {
		t.Fatalf("routed report: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("routed report %+v\nprimary %+v", got, want)
	}
	wantRows, wantN, err := primary.Recipients(ctx, acct, id, nil, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	gotRows, gotN, err := e.Deps.Reports.Recipients(ctx, acct, id, nil, 1, 100)
	if err != nil || gotN != wantN || !reflect.DeepEqual(gotRows, wantRows) {
		t.Fatalf("routed recipients: %d rows of %d (%v), primary %d of %d", len(gotRows), gotN, err, len(wantRows), wantN)
	}
	return got
}

// TestReportsReadFromReplica runs against a real streaming replica of the
// test server (scripts/replica-test.sh sets TEST_REPLICA_URL and
// TEST_REPLICA_STOP): a report read right after a send completes comes from
// the replica with the primary's figures; with the replica's replay paused, a
// send that completes afterwards is read from the primary; with the replica
// stopped, reports read the primary.
func TestReportsReadFromReplica(t *testing.T) {
	if os.Getenv("TEST_REPLICA_URL") == "" {
		t.Skip("TEST_REPLICA_URL is not set: scripts/replica-test.sh runs this test against a streaming replica")
	}
	e := enginetest.Start(t, enginetest.Options{})
	token, acct := e.Account("replica", "09121110077", "30007777", "advertising", 50_000_000)
	reads := openReads(t, e, time.Minute)
	e.Deps.ReadFrom(reads)

	// Right after completion: the replica serves it once it has replayed the
	// primary's position, with the primary's figures.
	first := sendAndFinish(t, e, token, "30007777", 300, 0)
	st := sameReport(t, e, acct, first)
	if st.Status != "done" || st.Delivered+st.Undelivered != 300 {
		t.Fatalf("report right after completion: %+v", st)
	}
	onReplica, onPrimary := reads.Counts()
	if onReplica == 0 || onPrimary != 0 {
		t.Fatalf("reads on the replica %d, on the primary %d: want all on the replica", onReplica, onPrimary)
	}

	// Replay paused: the replica cannot reach the primary's position within the
	// wait, so a send finished since is read from the primary, complete.
	replicaExec(t, e, "SELECT pg_wal_replay_pause()")
	paused := openReads(t, e, 100*time.Millisecond)
	e.Deps.ReadFrom(paused)
	second := sendAndFinish(t, e, token, "30007777", 200, 1000)
	if st := sameReport(t, e, acct, second); st.Status != "done" {
		t.Fatalf("report with the replica behind: %+v", st)
	}
	if onReplica, onPrimary := paused.Counts(); onReplica != 0 || onPrimary == 0 {
		t.Fatalf("replica behind: reads on the replica %d, on the primary %d", onReplica, onPrimary)
	}
	replicaExec(t, e, "SELECT pg_wal_replay_resume()")

	e.Deps.ReadFrom(reads)
	stoppedReplicaFallsBack(t, e, reads, acct, first, second)
}

// stoppedReplicaFallsBack stops the replica: the reports read the primary and
// nothing fails.
func stoppedReplicaFallsBack(t *testing.T, e *enginetest.Engine, reads *db.Reads, acct int64, ids ...int64) {
	t.Helper()
	stopReplica(t)
	for _, id := range ids {
		sameReport(t, e, acct, id)
	}
	if _, _, err := e.Deps.Reports.List(context.Background(), acct, report.Filter{Page: 1, Limit: 10}); err != nil {
		t.Fatalf("report list with the replica stopped: %v", err)
	}
	if _, onPrimary := reads.Counts(); onPrimary == 0 {
		t.Fatal("with the replica stopped no read went to the primary")
	}
}

// replicaExec runs a statement on the replica's copy of the test database.
func replicaExec(t *testing.T, e *enginetest.Engine, sql string) {
	t.Helper()
	p, err := db.Open(context.Background(), replicaSettings(t, e, 0).ReplicaURL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s on the replica: %v", sql, err)
	}
}

// stopReplica runs TEST_REPLICA_STOP, the command that stops the replica.
func stopReplica(t *testing.T) {
	t.Helper()
	args := strings.Fields(os.Getenv("TEST_REPLICA_STOP"))
	if len(args) == 0 {
		t.Fatal("TEST_REPLICA_STOP is not set")
	}
	var out bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("stop the replica: %v\n%s", err, out.String())
	}
}
