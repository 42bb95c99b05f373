package httpapi_test

// webhook stores an enabled endpoint of owner A.
func (w *walk) webhook() int64 {
	return w.sql(`INSERT INTO webhook_endpoints (account_id, url, events, secret)
		VALUES ($1, 'https://hooks.example.com/a', '{send.status}', 'whsec_walk') RETURNING id`, w.accA)
}

// deadDelivery stores a dead-lettered delivery of owner A.
func (w *walk) deadDelivery() int64 {
	return w.sql(`INSERT INTO webhook_deliveries (endpoint_id, account_id, events, status)
		VALUES ($1, $2, 1, 'dead') RETURNING id`, w.webhook(), w.accA)
}

// apiCall stores a logged API call of owner A.
func (w *walk) apiCall() int64 {
	return w.sql(`INSERT INTO api_calls (account_id, api_key_id, method, path, status, latency_us)
		VALUES ($1, $2, 'GET', '/v1/api/report/new_list', 200, 1500) RETURNING id`, w.accA, w.apiKey())
}
