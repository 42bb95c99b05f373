package enginetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// binary builds a command of this module once per test binary and returns its path.
func binary(t testing.TB, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "chapar-test-bin-")
		if buildErr != nil {
			return
		}
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..", "..")
		cmd := exec.Command("go", "build", "-o", buildDir+"/", "./cmd/smpp-gateway")
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = &buildError{out: string(out), err: err}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(buildDir, name)
}

type buildError struct {
	out string
	err error
}

// Error returns the build error followed by the build's output.
func (b *buildError) Error() string { return b.err.Error() + ": " + b.out }

// Process is a gateway running as its own OS process.
type Process struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// StartGatewayProcess runs bin/smpp-gateway as a separate process against the
// engine's database, Redis and simulator (instead of the in-process gateway).
func (e *Engine) StartGatewayProcess(t testing.TB) *Process {
	t.Helper()
	e.StopGateway()
	var list []string
	for _, op := range e.Sim.Operators() {
		list = append(list, op+"="+e.Sim.Addr(op))
	}
	binds := strings.Join(list, ",")
	cmd := exec.Command(binary(t, "smpp-gateway"))
	cmd.Env = append(os.Environ(), "DATABASE_URL="+e.DB.URL, "REDIS_ADDR="+e.Redis.Addr,
		"REDIS_DB="+strconv.Itoa(e.Redis.DB), "GATEWAY_BINDS="+binds, "GATEWAY_TPS=0", "GATEWAY_HTTP_ADDR=127.0.0.1:0",
		"SMPP_SYSTEM_ID="+e.Sim.SystemID(), "SMPP_PASSWORD="+e.Sim.Password(), "CHAPAR_PROFILE=test", "LOG_LEVEL=warn")
	if os.Getenv("ENGINE_LOG") != "" {
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Process{cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(p.Kill)
	return p
}

// Kill ends the process at once (SIGKILL): no drain, no unbind.
func (p *Process) Kill() {
	_ = p.cmd.Process.Kill()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}
