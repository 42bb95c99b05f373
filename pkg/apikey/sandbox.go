package apikey

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// oneSandbox reports the unique violation of api_keys_one_sandbox: the account
// already holds a live sandbox key.
func oneSandbox(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "api_keys_one_sandbox"
}
