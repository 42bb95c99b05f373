package send

import (
	"context"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/line"
)

// MsgServiceLineRequired refuses an advertising line for a one-time code or a
// transactional notice: that traffic goes out from a service line, without the
// «لغو۱۱» footer.
const MsgServiceLineRequired = "پیامک‌های رمز یکبار مصرف و اطلاع‌رسانی (الگوی OTP و تراکنشی) از خط خدماتی ارسال می‌شوند؛ خط تبلیغاتی برای آن‌ها مجاز نیست"

// Which line a send uses, and the footer (docs/api-sending.md «Lines and the
// «لغو۱۱» footer»):
//
//   - Pattern sends (all kinds) without a sender go out from the account's
//     service line, else the platform's shared service line; they may name any
//     of the account's lines or the shared service line.
//   - One-time code and transactional patterns never go out from an advertising
//     line (422 on sender).
//   - Every other send without a sender uses the account's default line.
//   - The footer is appended exactly when the line is an advertising one, unless
//     the caller of a service-line send asks for it (cancel11: true).

// lineFor resolves the sender line of a send of type typ.
func (s *Service) lineFor(ctx context.Context, accountID int64, typ, sender string) (line.Line, error) {
	if !isPatternType(typ) {
		return s.lines.Resolve(ctx, accountID, sender)
	}
	ln, err := s.lines.ResolveService(ctx, accountID, sender)
	if err != nil {
		return ln, err
	}
	if ln.Kind == line.KindAdvertising && (typ == TypePatternOTP || typ == TypePatternTransactional) {
		return ln, apperr.Field("sender", MsgServiceLineRequired)
	}
	return ln, nil
}

// isPatternType reports whether typ is a send of a pattern.
func isPatternType(typ string) bool {
	return typ == TypePattern || typ == TypePatternOTP || typ == TypePatternTransactional
}
