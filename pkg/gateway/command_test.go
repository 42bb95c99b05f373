package gateway

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/jobs"
)

// The built cmd/smpp-gateway binary, configured only through its
// environment, binds, submits a batch, serves /status, and on SIGTERM stops
// gracefully and exits 0.
func TestCommandRunsAndStopsOnSIGTERM(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not in PATH")
	}
	bin := filepath.Join(t.TempDir(), "smpp-gateway")
	build := exec.Command(goBin, "build", "-o", bin, "../../cmd/smpp-gateway")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	e := newEnv(t, smscsim.Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	httpAddr := ln.Addr().String()
	ln.Close()

	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+e.db.URL,
		"REDIS_ADDR="+e.redis.Addr,
		fmt.Sprintf("REDIS_DB=%d", e.redis.DB),
		"GATEWAY_BINDS=mci="+e.sim.Addr("mci"),
		"GATEWAY_HTTP_ADDR="+httpAddr,
		"GATEWAY_INSTANCE_ID=cmd-test",
		"GATEWAY_TPS=0",
		"LOG_LEVEL=warn",
	)
	if os.Getenv("GATEWAY_TEST_LOG") != "" {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	key := jobs.GatewayHeartbeat + "cmd-test"
	waitFor(t, 15*time.Second, "a heartbeat with a bound bind", func() bool {
		raw, err := e.redis.Client.Get(e.ctx(), key).Bytes()
		var hb Heartbeat
		return err == nil && json.Unmarshal(raw, &hb) == nil && len(hb.Binds) == 1 && hb.Binds[0].Bound
	})
	sendID := e.createSend("from the binary", false, "queued")
	e.addRecipients(sendID, 1, 100, 1, "98912", "mci", 1)
	e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"}, "")
	waitFor(t, 20*time.Second, "the batch sent", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == 100
	})
	res, err := http.Get("http://" + httpAddr + "/status")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Instance string
		Batches  Counters
	}
	err = json.NewDecoder(res.Body).Decode(&st)
	res.Body.Close()
	if err != nil || st.Instance != "cmd-test" || st.Batches.RecipientsSent != 100 {
		t.Fatalf("status %+v %v", st, err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit 20 s after SIGTERM")
	}
	if e.redis.Client.Exists(e.ctx(), key).Val() != 0 {
		t.Fatal("heartbeat left behind")
	}
	waitFor(t, 5*time.Second, "the unbind", func() bool { return e.sim.Stats().Total.Unbinds == 1 })
}
