package config_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/ratelimit"
)

// redisProc is a redis-server (or sentinel) started by a test.
type redisProc struct {
	addr string
	cmd  *exec.Cmd
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// startRedis runs redis-server on a free port with the extra arguments (a config
// file first, when given) and waits until it answers PING.
func startRedis(t *testing.T, conf string, args ...string) *redisProc {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server is not installed")
	}
	port, dir := freePort(t), t.TempDir()
	var argv []string
	if conf != "" {
		path := filepath.Join(dir, "redis.conf")
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(conf, "$PORT", port)), 0o600); err != nil {
			t.Fatal(err)
		}
		argv = append(argv, path)
	}
	argv = append(argv, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir)
	cmd := exec.Command("redis-server", append(argv, args...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &redisProc{addr: "127.0.0.1:" + port, cmd: cmd}
	t.Cleanup(p.kill)
	c := redis.NewClient(&redis.Options{Addr: p.addr})
	defer c.Close()
	waitFor(t, "redis-server "+p.addr, 10*time.Second, func() bool { return c.Ping(context.Background()).Err() == nil })
	return p
}

func (p *redisProc) kill() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

// waitFor polls cond until it holds; the timeout is a safety net of at least a
// minute (a loaded machine only makes the wait longer).
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(max(timeout, time.Minute))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// worked runs an asynq server on the deployment and records the tasks it handled.
type worked struct {
	mu   sync.Mutex
	seen map[string]int
}

func (w *worked) count(id string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen[id]
}

func runAsynq(t *testing.T, opt asynq.RedisConnOpt, queues map[string]int) *worked {
	t.Helper()
	w := &worked{seen: map[string]int{}}
	srv := asynq.NewServer(opt, asynq.Config{Concurrency: 4, Queues: queues, LogLevel: asynq.FatalLevel})
	mux := asynq.NewServeMux()
	mux.HandleFunc("ha:test", func(_ context.Context, task *asynq.Task) error {
		w.mu.Lock()
		w.seen[string(task.Payload())]++
		w.mu.Unlock()
		return nil
	})
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	return w
}

// enqueue puts tasks named prefix-0… on the queues in turn, retrying each for a
// while: right after a failover the clients find the new master.
func enqueue(t *testing.T, q *asynq.Client, prefix string, n int, queues []string) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("%s-%d", prefix, i)
		task := asynq.NewTask("ha:test", []byte(ids[i]))
		waitFor(t, "enqueue "+ids[i], 20*time.Second, func() bool {
			_, err := q.Enqueue(task, asynq.Queue(queues[i%len(queues)]), asynq.TaskID(ids[i]))
			return err == nil
		})
	}
	return ids
}

func allDone(t *testing.T, w *worked, ids []string) {
	t.Helper()
	waitFor(t, "every task handled", 30*time.Second, func() bool {
		for _, id := range ids {
			if w.count(id) == 0 {
				return false
			}
		}
		return true
	})
	for _, id := range ids {
		if n := w.count(id); n != 1 {
			t.Fatalf("task %s handled %d times", id, n)
		}
	}
}

// usesRedis checks the product's own Redis users on the deployment: the rate
// limiter (a Lua script per key, keys spread over slots) and live events (pub/sub).
func usesRedis(t *testing.T, rdb redis.UniversalClient) {
	t.Helper()
	ctx := context.Background()
	rl := ratelimit.New(rdb, "rl:ha:")
	for i := range 20 {
		key := "k" + strconv.Itoa(i)
		for j := range 3 {
			var ok bool
			waitFor(t, "rate limit "+key, 20*time.Second, func() bool {
				var err error
				ok, _, err = rl.Allow(ctx, key, 2, time.Minute)
				return err == nil
			})
			if ok != (j < 2) {
				t.Fatalf("hit %d of %s allowed=%v", j+1, key, ok)
			}
		}
	}
	sub := rdb.PSubscribe(ctx, "events:*")
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	if err := live.NewPublisher(rdb, "").Publish(ctx, 42, "ha.check", map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-sub.Channel():
		if !strings.Contains(m.Payload, "ha.check") {
			t.Fatalf("live event %q", m.Payload)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no live event through pub/sub")
	}
}

// TestRedisSentinelFailover: with REDIS_MODE=sentinel the product's clients follow
// the master across a failover: the master is killed, the sentinel promotes the
// replica, and asynq, the rate limiter and live events carry on; no task is lost
// or handled twice.
func TestRedisSentinelFailover(t *testing.T) {
	master := startRedis(t, "")
	_, mport, _ := net.SplitHostPort(master.addr)
	replica := startRedis(t, "", "--replicaof", "127.0.0.1", mport)
	sentinel := startRedis(t, `port $PORT
sentinel monitor chapar 127.0.0.1 `+mport+` 1
sentinel down-after-milliseconds chapar 1000
sentinel failover-timeout chapar 5000
`, "--sentinel")
	sc := redis.NewSentinelClient(&redis.Options{Addr: sentinel.addr})
	defer sc.Close()
	ctx := context.Background()
	waitFor(t, "the sentinel to know the replica", 20*time.Second, func() bool {
		r, err := sc.Replicas(ctx, "chapar").Result()
		return err == nil && len(r) == 1 && strings.Contains(fmt.Sprint(r), "slave")
	})

	cfg := config.Config{RedisAddr: master.addr, Redis: config.RedisHA{Mode: config.RedisSentinel, MasterName: "chapar",
		Sentinels: []string{sentinel.addr}}}
	rdb := cfg.RedisClient()
	defer rdb.Close()
	q := asynq.NewClient(cfg.AsynqRedis())
	defer q.Close()
	w := runAsynq(t, cfg.AsynqRedis(), map[string]int{"critical": 6, "default": 3})
	before := enqueue(t, q, "before", 40, []string{"critical", "default"})
	allDone(t, w, before)
	usesRedis(t, rdb)

	master.kill()
	waitFor(t, "the replica promoted", 30*time.Second, func() bool {
		addr, err := sc.GetMasterAddrByName(ctx, "chapar").Result()
		return err == nil && len(addr) == 2 && addr[0]+":"+addr[1] == replica.addr
	})
	after := enqueue(t, q, "after", 40, []string{"critical", "default"})
	allDone(t, w, append(before, after...))
	usesRedis(t, rdb)
}

// TestRedisCluster: with REDIS_MODE=cluster (three masters, the slots split between
// them) asynq's queues, the rate limiter's keys and live events work across nodes.
func TestRedisCluster(t *testing.T) {
	ctx := context.Background()
	var nodes []*redisProc
	var clients []*redis.Client
	for range 3 {
		n := startRedis(t, "", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000")
		c := redis.NewClient(&redis.Options{Addr: n.addr})
		defer c.Close()
		nodes, clients = append(nodes, n), append(clients, c)
	}
	for i, c := range clients {
		lo, hi := i*16384/3, (i+1)*16384/3-1
		if err := c.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", lo, hi).Err(); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			host, port, _ := net.SplitHostPort(nodes[i].addr)
			if err := clients[0].Do(ctx, "CLUSTER", "MEET", host, port).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitFor(t, "the cluster to form", 30*time.Second, func() bool {
		for _, c := range clients {
			info, err := c.ClusterInfo(ctx).Result()
			if err != nil || !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_known_nodes:3") {
				return false
			}
		}
		return true
	})

	cfg := config.Config{RedisAddr: nodes[0].addr + "," + nodes[1].addr, Redis: config.RedisHA{Mode: config.RedisCluster}}
	rdb := cfg.RedisClient()
	defer rdb.Close()
	queues := []string{"critical", "default", "carrier:mci", "carrier:irancell", "carrier:rightel"}
	weights := map[string]int{}
	for _, q := range queues {
		weights[q] = 1
	}
	q := asynq.NewClient(cfg.AsynqRedis())
	defer q.Close()
	w := runAsynq(t, cfg.AsynqRedis(), weights)
	ids := enqueue(t, q, "cluster", 100, queues)
	allDone(t, w, ids)
	usesRedis(t, rdb)
	// The keys really are spread: every node holds some.
	for i, c := range clients {
		if n, err := c.DBSize(ctx).Result(); err != nil || n == 0 {
			t.Fatalf("node %d holds %d keys (%v)", i, n, err)
		}
	}
}
