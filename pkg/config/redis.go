package config

import (
	"fmt"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// Redis deployment modes (REDIS_MODE).
const (
	// RedisStandalone is one server at REDIS_ADDR.
	RedisStandalone = "standalone"
	// RedisSentinel finds the master named REDIS_MASTER_NAME through the
	// sentinels of REDIS_SENTINELS and follows it across failovers.
	RedisSentinel = "sentinel"
	// RedisCluster uses the Redis Cluster whose seed nodes REDIS_ADDR lists
	// (comma-separated); REDIS_DB must be 0.
	RedisCluster = "cluster"
)

// RedisHA is the Redis deployment: one server, a Sentinel-watched master and
// replicas, or a Cluster. Every process (api, worker, gateway) reads it, and both
// go-redis and asynq connect through it.
type RedisHA struct {
	Mode         string
	MasterName   string
	Sentinels    []string
	SentinelPass string
	// WaitReplicas (REDIS_WAIT_REPLICAS) is how many replicas must hold a
	// carrier's receipt before the gateway acknowledges it (Redis WAIT): with a
	// replica and Sentinel, a failover then loses no acknowledged receipt. 0 (the
	// default) acknowledges once the master has it.
	WaitReplicas int
}

func loadRedisHA(db int) (RedisHA, error) {
	h := RedisHA{Mode: env("REDIS_MODE", RedisStandalone), MasterName: env("REDIS_MASTER_NAME", "chapar"),
		Sentinels: list(env("REDIS_SENTINELS", "")), SentinelPass: secret("REDIS_SENTINEL_PASSWORD", "")}
	var err error
	if h.WaitReplicas, err = envInt("REDIS_WAIT_REPLICAS", 0); err != nil || h.WaitReplicas < 0 {
		return h, fmt.Errorf("config REDIS_WAIT_REPLICAS: a number of replicas (0 or more)")
	}
	switch h.Mode {
	case RedisStandalone:
	case RedisSentinel:
		if len(h.Sentinels) == 0 || h.MasterName == "" {
			return h, fmt.Errorf("config REDIS_MODE=sentinel needs REDIS_SENTINELS (host:port,…) and REDIS_MASTER_NAME")
		}
	case RedisCluster:
		if db != 0 {
			return h, fmt.Errorf("config REDIS_DB %d: a Redis Cluster has only database 0", db)
		}
	default:
		return h, fmt.Errorf("config REDIS_MODE %q: use standalone, sentinel or cluster", h.Mode)
	}
	return h, nil
}

// RedisOptions are the go-redis options of one server at REDIS_ADDR (the
// standalone mode; tools and tests that talk to a single server).
func (c Config) RedisOptions() *redis.Options {
	return &redis.Options{Addr: c.RedisAddr, Password: c.RedisPass, DB: c.RedisDB}
}

// RedisClient connects to the configured deployment.
func (c Config) RedisClient() redis.UniversalClient {
	switch c.Redis.Mode {
	case RedisSentinel:
		return redis.NewFailoverClient(&redis.FailoverOptions{MasterName: c.Redis.MasterName, SentinelAddrs: c.Redis.Sentinels,
			SentinelPassword: c.Redis.SentinelPass, Password: c.RedisPass, DB: c.RedisDB})
	case RedisCluster:
		return redis.NewClusterClient(&redis.ClusterOptions{Addrs: list(c.RedisAddr), Password: c.RedisPass})
	}
	return redis.NewClient(c.RedisOptions())
}

// AsynqRedis is the same deployment for asynq.
func (c Config) AsynqRedis() asynq.RedisConnOpt {
	switch c.Redis.Mode {
	case RedisSentinel:
		return asynq.RedisFailoverClientOpt{MasterName: c.Redis.MasterName, SentinelAddrs: c.Redis.Sentinels,
			SentinelPassword: c.Redis.SentinelPass, Password: c.RedisPass, DB: c.RedisDB}
	case RedisCluster:
		return asynq.RedisClusterClientOpt{Addrs: list(c.RedisAddr), Password: c.RedisPass}
	}
	return asynq.RedisClientOpt{Addr: c.RedisAddr, Password: c.RedisPass, DB: c.RedisDB}
}
