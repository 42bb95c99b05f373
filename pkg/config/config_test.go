package config

import (
	"strings"
	"testing"
	"time"
)

func TestProductionRefusesDevTokenSecret(t *testing.T) {
	t.Setenv("CHAPAR_ENV", EnvProduction)
	t.Setenv("TOKEN_SECRET_FILE", "")
	for _, secret := range []string{"", DevTokenSecret} {
		t.Setenv("TOKEN_SECRET", secret)
		_, err := Load()
		if err == nil || !strings.Contains(err.Error(), "TOKEN_SECRET") {
			t.Fatalf("production with TOKEN_SECRET %q: err %v, want a TOKEN_SECRET error", secret, err)
		}
	}
	t.Setenv("TOKEN_SECRET", "a-long-random-secret-of-production-4f9c2a")
	c, err := Load()
	if err != nil || !c.Production() {
		t.Fatalf("production with its own secret: %v (production %v)", err, c.Production())
	}
}

func TestDevelopmentKeepsDevTokenSecret(t *testing.T) {
	t.Setenv("CHAPAR_ENV", "")
	t.Setenv("TOKEN_SECRET", "")
	t.Setenv("TOKEN_SECRET_FILE", "")
	c, err := Load()
	if err != nil || c.Production() || c.TokenSecret != DevTokenSecret {
		t.Fatalf("development: %v, %+v", err, c)
	}
	t.Setenv("CHAPAR_ENV", "prod")
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), "CHAPAR_ENV") {
		t.Fatalf("CHAPAR_ENV=prod: err %v, want a CHAPAR_ENV error", err)
	}
}

func TestHTTPLimitsDefaults(t *testing.T) {
	for _, k := range []string{"HTTP_READ_HEADER_TIMEOUT", "HTTP_READ_TIMEOUT", "HTTP_WRITE_TIMEOUT",
		"HTTP_IDLE_TIMEOUT", "HTTP_STREAM_TIMEOUT", "HTTP_MAX_CONNS_PER_IP", "CHAPAR_ENV"} {
		t.Setenv(k, "")
	}
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTPReadHeaderTimeout != 10*time.Second || c.HTTPReadTimeout != 30*time.Second ||
		c.HTTPWriteTimeout != 2*time.Minute || c.HTTPIdleTimeout != 2*time.Minute ||
		c.HTTPStreamTimeout != 30*time.Minute || c.HTTPMaxConnsPerIP != 64 {
		t.Fatalf("defaults: %+v", c)
	}
	t.Setenv("HTTP_READ_TIMEOUT", "5s")
	t.Setenv("HTTP_MAX_CONNS_PER_IP", "8")
	if c, err = Load(); err != nil || c.HTTPReadTimeout != 5*time.Second || c.HTTPMaxConnsPerIP != 8 {
		t.Fatalf("set: %v %+v", err, c)
	}
}

// PAYMENT_GATEWAY defaults to the sandbox bank; an unknown gateway stops start-up
// instead of running without payments.
func TestPaymentGateway(t *testing.T) {
	t.Setenv("PAYMENT_GATEWAY", "")
	c, err := Load()
	if err != nil || c.PaymentGateway != "sandbox" || c.PaymentPendingTimeout != 15*time.Minute {
		t.Fatalf("defaults: %q %v %v", c.PaymentGateway, c.PaymentPendingTimeout, err)
	}
	t.Setenv("PAYMENT_GATEWAY", "zarinpal")
	if _, err := Load(); err == nil {
		t.Fatal("an unknown gateway was accepted")
	}
}
