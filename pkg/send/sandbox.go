package send

import "github.com/chapar/chapar/pkg/operator"

// A sandbox API key's send (docs/developers.md) is accepted, held for review,
// scheduled, expanded, submitted and receipted like any other, with two
// differences, both structural:
//
//   - Its price is 0 at accept and every recipient costs 0 at expansion
//     (sandboxCost), so every money stage (the hold, the settle, the refunds of
//     failed parts, stops and the finish) moves 0 rials, and wallet.Apply writes
//     no ledger row for 0.
//   - Every recipient's operator is operator.Sandbox, and the batches, the
//     sweeper's re-enqueues and the gateway's routing all follow the recipient's
//     operator: its parts only ever go to the carrier:sandbox queues, which the
//     gateway serves with binds that bind only to the simulator (gateway.OperatorSandbox).

// sandboxCost turns a planned recipient of a sandbox send into a free one on the
// sandbox route; blacklisted and cancel-11 numbers stay what they were.
func sandboxCost(r planned) planned {
	r.op, r.cost = operator.Sandbox, 0
	return r
}

// auditDetails are the details of a send.create audit entry.
func auditDetails(recipients int, price int64, status string, sandbox bool) map[string]any {
	d := map[string]any{"recipients": recipients, "price": price, "status": status}
	if sandbox {
		d["sandbox"] = true
	}
	return d
}
