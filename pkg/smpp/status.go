package smpp

import (
	"errors"
	"fmt"

	"github.com/fiorix/go-smpp/smpp/pdu"
)

// Status is an SMPP command_status value.
type Status uint32

// Command status values this package produces or interprets. Any other value
// received from an SMSC is passed through unchanged in a *StatusError.
const (
	StatusOK                Status = 0x00000000 // ESME_ROK
	StatusInvalidMsgLen     Status = 0x00000001 // ESME_RINVMSGLEN
	StatusInvalidCmdLen     Status = 0x00000002 // ESME_RINVCMDLEN
	StatusInvalidCmdID      Status = 0x00000003 // ESME_RINVCMDID
	StatusInvalidBindStatus Status = 0x00000004 // ESME_RINVBNDSTS
	StatusAlreadyBound      Status = 0x00000005 // ESME_RALYBND
	StatusSystemError       Status = 0x00000008 // ESME_RSYSERR
	StatusInvalidSourceAddr Status = 0x0000000A // ESME_RINVSRCADR
	StatusInvalidDestAddr   Status = 0x0000000B // ESME_RINVDSTADR
	StatusInvalidMsgID      Status = 0x0000000C // ESME_RINVMSGID
	StatusBindFailed        Status = 0x0000000D // ESME_RBINDFAIL
	StatusInvalidPassword   Status = 0x0000000E // ESME_RINVPASWD
	StatusInvalidSystemID   Status = 0x0000000F // ESME_RINVSYSID
	StatusMsgQueueFull      Status = 0x00000014 // ESME_RMSGQFUL
	StatusThrottled         Status = 0x00000058 // ESME_RTHROTTLED
	StatusAppNackTemporary  Status = 0x00000064 // ESME_RX_T_APPN
	StatusAppNackPermanent  Status = 0x00000065 // ESME_RX_P_APPN
	StatusAppNackReject     Status = 0x00000066 // ESME_RX_R_APPN
	StatusUnknownError      Status = 0x000000FF // ESME_RUNKNOWNERR
)

// String returns the status in hex together with its SMPP description.
func (s Status) String() string {
	return fmt.Sprintf("0x%08X (%s)", uint32(s), pdu.Status(s).Error())
}

var (
	// ErrUnknown is matched by the outcome of a submit whose fate is unknown:
	// the response timed out, the connection was lost while it was in flight,
	// or the caller stopped waiting. The SMSC may have accepted the message;
	// do not resend it, reconcile it through its receipt.
	ErrUnknown = errors.New("smpp: submit outcome unknown")

	// ErrThrottled is matched by a *StatusError carrying ESME_RTHROTTLED.
	// The message was not accepted and may be submitted again later.
	ErrThrottled = errors.New("smpp: throttled by SMSC")

	// ErrNotSent is matched by every error returned before any byte of the
	// request was written (window or rate wait cancelled, session not bound,
	// client closed, invalid message). Such a message may be submitted again.
	ErrNotSent = errors.New("smpp: request not sent")

	// ErrNotBound is matched when no bound session could take the request.
	// It always comes together with ErrNotSent.
	ErrNotBound = errors.New("smpp: session not bound")

	// ErrWrongPeer is matched by a bind whose SMSC is not the one
	// Config.PeerSystemID names; the client keeps retrying with back-off.
	ErrWrongPeer = errors.New("smpp: bound to the wrong SMSC")

	// ErrClosed is matched when the client or session is closing or closed.
	ErrClosed = errors.New("smpp: closed")
)

// StatusError reports an SMPP response carrying a non-zero command_status.
type StatusError struct {
	// Command is the name of the request that was answered, e.g. "submit_sm".
	Command string
	// Status is the command_status of the response.
	Status Status
}

// Error implements error.
func (e *StatusError) Error() string {
	return fmt.Sprintf("smpp: %s rejected with status %s", e.Command, e.Status)
}

// Is reports ESME_RTHROTTLED as ErrThrottled.
func (e *StatusError) Is(target error) bool {
	return target == ErrThrottled && e.Status == StatusThrottled
}

// IsThrottled reports whether err is an ESME_RTHROTTLED rejection.
func IsThrottled(err error) bool { return errors.Is(err, ErrThrottled) }

// IsUnknown reports whether err leaves the submit outcome unknown.
func IsUnknown(err error) bool { return errors.Is(err, ErrUnknown) }

// IsNotSent reports whether err guarantees the request never reached the SMSC.
func IsNotSent(err error) bool { return errors.Is(err, ErrNotSent) }

// StatusOf returns the command_status carried by err, if any.
func StatusOf(err error) (Status, bool) {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status, true
	}
	return 0, false
}

func notSent(cause error) error {
	return fmt.Errorf("%w: %w", ErrNotSent, cause)
}
