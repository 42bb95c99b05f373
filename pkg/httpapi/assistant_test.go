package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/apitest"
	"github.com/chapar/chapar/pkg/config"
)

// fakeModel is an OpenAI-compatible server that streams one fixed reply and
// records the prompts it got.
func fakeModel(t *testing.T, reply string, prompts *[]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		*prompts = append(*prompts, req.Model+"|"+req.Messages[0].Content)
		w.Header().Set("Content-Type", "text/event-stream")
		b, _ := json.Marshal(reply)
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\ndata: [DONE]\n\n", b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestAssistantWithRemoteModel: with ASSISTANT_URL set, /panel/agent answers
// through the remote model, guarded (no invented number, within the budget), the
// conversation continues, and past the daily quota the answer is 429.
func TestAssistantWithRemoteModel(t *testing.T) {
	var prompts []string
	model := fakeModel(t, "تخفیف ۲۰ درصدی تا جمعه! تماس: 09129998877", &prompts)
	e := apitest.Start(t, func(c *config.Config) {
		c.AssistantURL, c.AssistantModel, c.AssistantDailyQuota = model.URL+"/v1", "qwen-test", 3
	})
	tok, _ := owner(t, e, "writer", "09121250000")
	var first struct {
		Thought        string `json:"thought"`
		ConversationID int64  `json:"conversation_id"`
		Parts          int    `json:"parts"`
		Model          string `json:"model"`
	}
	r := e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": "یک تبلیغ برای تخفیف ۲۰ درصدی بنویس", "parts": 1, "cancel11": true}, tok)
	r.Decode(t, &first)
	if r.Status != 200 || first.Model != "qwen-test" || first.ConversationID == 0 || strings.Contains(first.Thought, "0912") ||
		!strings.Contains(first.Thought, "۲۰") || first.Parts != 1 {
		t.Fatalf("first: %d %s", r.Status, r.Raw)
	}
	if len(prompts) != 1 || !strings.HasPrefix(prompts[0], "qwen-test|") || !strings.Contains(prompts[0], "at most 1 SMS part") {
		t.Errorf("prompts: %q", prompts)
	}
	r = e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": first.Thought, "action": "formal", "conversation_id": first.ConversationID}, tok)
	if r.Status != 200 || !strings.Contains(string(r.Raw), fmt.Sprintf(`"conversation_id":%d`, first.ConversationID)) {
		t.Fatalf("second: %d %s", r.Status, r.Raw)
	}
	r = e.Do("POST", "/v1/api/ticket/ai", map[string]any{"text": "کلید API که ساختم خطای ۴۰۱ می‌دهد"}, tok)
	if r.Status != 200 || !strings.Contains(string(r.Raw), `"sub_category":"کلید API"`) {
		t.Fatalf("ticket draft: %d %s", r.Status, r.Raw)
	}
	r = e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": "سلام"}, tok)
	if r.Status != 429 || r.Header.Get("Retry-After") == "" || !strings.Contains(r.Meta.Message, "سهمیه روزانه") {
		t.Errorf("past the quota: %d %s", r.Status, r.Raw)
	}
	r = e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": "", "parts": 5}, tok)
	if r.Status != 422 {
		t.Errorf("an empty request: %d %s", r.Status, r.Raw)
	}
}
