package httpapi

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/config"
)

// TestDownloadsOutliveWriteTimeout answers a download route and an ordinary one after
// the server's write time-out: the download arrives, the ordinary answer is cut.
func TestDownloadsOutliveWriteTimeout(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(streamDeadlines(time.Minute))
	slow := func(c *gin.Context) {
		time.Sleep(1200 * time.Millisecond)
		c.String(http.StatusOK, "done")
	}
	r.GET("/v1/api/report/download_recipients", slow)
	r.GET("/v1/api/report/new_list", slow)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(config.Config{HTTPReadTimeout: time.Second, HTTPWriteTimeout: 500 * time.Millisecond}, r)
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	get := func(path string) (string, error) {
		res, err := http.Get("http://" + ln.Addr().String() + path)
		if err != nil {
			return "", err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return string(b), err
	}
	if body, err := get("/v1/api/report/download_recipients"); err != nil || body != "done" {
		t.Fatalf("download: %q %v", body, err)
	}
	if body, err := get("/v1/api/report/new_list"); err == nil && body == "done" {
		t.Fatal("an ordinary answer outlived the write time-out")
	}
}

// TestLimitTablesNameRealRoutes keeps the body-limit and stream tables in step with
// the route table: a renamed route must not silently fall back to the defaults.
func TestLimitTablesNameRealRoutes(t *testing.T) {
	known := map[string]bool{}
	for _, rt := range (&Server{}).routes() {
		known[rt.Method+" /v1/api"+rt.Path] = true
	}
	for key := range bodyLimits {
		if !known[key] {
			t.Errorf("bodyLimits names %q, which is not a route", key)
		}
	}
	for key := range streamRoutes {
		if !known[key] {
			t.Errorf("streamRoutes names %q, which is not a route", key)
		}
	}
}
