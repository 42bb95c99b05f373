// Package acl owns permissions and the identity of the caller of a request.
//
// Every route declares one Permission. Owners hold every permission; colleagues hold
// the permissions of their role. API keys act as the owner of their account, limited
// to the API permissions.
package acl

import "slices"

// Permission names one thing a caller may do.
type Permission string

// Route-level permissions. Public routes need no token; Authenticated needs any
// valid session; the rest are checked against the caller's role.
const (
	Public        Permission = "public"
	Authenticated Permission = "authenticated"
	// Staff routes (the back office) take only staff sessions; every other route
	// refuses them.
	Staff Permission = "staff"
	// StaffOperations is a back-office route for the staff whose role grants it
	// (the operations page: binds, queues, throughput); like Staff, it takes only
	// staff sessions.
	StaffOperations Permission = "staff.operations"

	SendCreate    Permission = "send.create"
	SendCancel    Permission = "send.cancel"
	ReportView    Permission = "report.view"
	NumberView    Permission = "number.view"
	NumberManage  Permission = "number.manage"
	WalletView    Permission = "wallet.view"
	ProfileManage Permission = "profile.manage"
	PartnerManage Permission = "partner.manage"

	PhonebookView   Permission = "phonebook.view"
	PhonebookManage Permission = "phonebook.manage"
	FileManage      Permission = "file.manage"
	AuditView       Permission = "audit.view" // owner-only: not in All, so no role grants it

	// WalletPay (payments, top-ups) and APIKeyManage are the owner's unless a role
	// grants them (spec §6: owner-only unless granted).
	WalletPay    Permission = "wallet.pay"
	APIKeyManage Permission = "apikey.manage"

	// PatternManage creates and edits patterns (sending one needs SendCreate).
	PatternManage Permission = "pattern.manage"
	// PredefinedView reads the predefined messages (the editor's picker);
	// PredefinedManage creates, edits and deletes them and their groups.
	PredefinedView   Permission = "predefined.view"
	PredefinedManage Permission = "predefined.manage"
	// SupportManage opens, follows, answers and rates the account's support requests.
	SupportManage Permission = "support.manage"
	// InboxManage marks received messages read and deletes them (reading them is
	// ReportView); SecretaryView reads the secretaries and keyword readers and
	// SecretaryManage creates, edits, toggles and deletes them.
	InboxManage     Permission = "inbox.manage"
	SecretaryView   Permission = "secretary.view"
	SecretaryManage Permission = "secretary.manage"
)

// IsStaff reports whether p is a back-office permission (Staff, StaffOperations):
// its routes take only staff sessions.
func (p Permission) IsStaff() bool { return p == Staff || p == StaffOperations }

// WalletAlert sets the low-balance alert. Owner-only: not in All, so no role grants it.
const WalletAlert Permission = "wallet.alert"

// Titles are the Persian names of the permissions, for the role editor.
var Titles = map[Permission]string{
	SendCreate:    "ارسال پیامک",
	SendCancel:    "توقف و لغو ارسال",
	ReportView:    "مشاهده گزارش‌ها",
	NumberView:    "مشاهده خطوط ارسال",
	NumberManage:  "مدیریت خطوط ارسال",
	WalletView:    "مشاهده کیف پول",
	ProfileManage: "مدیریت پروفایل",
	PartnerManage: "مدیریت همکاران و نقش‌ها",

	PhonebookView:    "مشاهده دفترچه تلفن",
	PhonebookManage:  "مدیریت دفترچه تلفن و لیست سیاه",
	FileManage:       "بارگذاری و مدیریت فایل‌ها",
	AuditView:        "مشاهده گزارش فعالیت‌ها",
	WalletPay:        "پرداخت و افزایش اعتبار",
	APIKeyManage:     "مدیریت کلیدهای API",
	WalletAlert:      "تنظیم هشدار کمبود اعتبار",
	PatternManage:    "ایجاد و ویرایش الگوها",
	PredefinedView:   "مشاهده پیام‌های از پیش تعریف‌شده",
	PredefinedManage: "مدیریت پیام‌های از پیش تعریف‌شده",
	SupportManage:    "ثبت و پیگیری درخواست‌های پشتیبانی",
	InboxManage:      "خوانده‌شده و حذف پیامک‌های دریافتی",
	SecretaryView:    "مشاهده منشی‌ها و کلیدخوان‌ها",
	SecretaryManage:  "مدیریت منشی‌ها و کلیدخوان‌ها",
}

// All lists the permissions a role may hold (for the role editor).
var All = []Permission{SendCreate, SendCancel, ReportView, NumberView, NumberManage, WalletView, ProfileManage, PartnerManage,
	PhonebookView, PhonebookManage, FileManage, WalletPay, APIKeyManage, PatternManage,
	PredefinedView, PredefinedManage, SupportManage, InboxManage, SecretaryView, SecretaryManage}

// Identity is the authenticated caller.
type Identity struct {
	UserID      int64
	AccountID   int64
	SessionID   int64
	APIKeyID    int64
	Username    string
	Name        string
	IsOwner     bool
	Permissions []Permission
	// Staff marks a back-office staff session.
	Staff bool
	// Sandbox marks a sandbox API key: its sends are never charged and never reach
	// a carrier, and every answer is marked (docs/developers.md).
	Sandbox bool
	// ImpersonatorID and Impersonator name the staff member who opened this session
	// as the user (impersonation): credential changes are refused in it and every
	// audit entry made in it names them.
	ImpersonatorID int64
	Impersonator   string
}

// Can reports whether the identity holds p.
func (id Identity) Can(p Permission) bool {
	switch p {
	case Public:
		return true
	case Authenticated:
		// The signed-in user's own routes (sessions, two-step login, login links) are
		// never an API key's: a key could otherwise mint a login of its creator.
		return id.APIKeyID == 0
	}
	if id.IsOwner {
		return true
	}
	return slices.Contains(id.Permissions, p)
}

// Group is one feature of the panel and the permissions that govern it, for the role
// editor and the permission list.
type Group struct {
	Key         string
	Title       string
	Permissions []Permission
}

// Groups sorts every permission of All under its feature, with Persian titles.
var Groups = []Group{
	{"send", "ارسال پیامک", []Permission{SendCreate, SendCancel}},
	{"pattern", "الگو (پترن)", []Permission{PatternManage}},
	{"report", "گزارش‌ها", []Permission{ReportView}},
	{"inbox", "پیامک‌های دریافتی", []Permission{InboxManage}},
	{"secretary", "منشی و کلیدخوان", []Permission{SecretaryView, SecretaryManage}},
	{"number", "خطوط ارسال", []Permission{NumberView, NumberManage}},
	{"contacts", "دفترچه تلفن", []Permission{PhonebookView, PhonebookManage}},
	{"file", "مدیریت فایل", []Permission{FileManage}},
	{"predefined", "پیام‌های از پیش تعریف‌شده", []Permission{PredefinedView, PredefinedManage}},
	{"wallet", "امور مالی", []Permission{WalletView, WalletPay}},
	{"developers", "برنامه‌نویسان", []Permission{APIKeyManage}},
	{"profile", "حساب کاربری", []Permission{ProfileManage}},
	{"partner", "همکاران", []Permission{PartnerManage}},
	{"support", "پشتیبانی", []Permission{SupportManage}},
}

// GroupOf returns the feature group that holds p.
func GroupOf(p Permission) (Group, bool) {
	for _, g := range Groups {
		if slices.Contains(g.Permissions, p) {
			return g, true
		}
	}
	return Group{}, false
}

// Known reports whether p is a permission a role may hold.
func Known(p Permission) bool { return slices.Contains(All, p) || slices.Contains(OwnerOnly, p) }

// OwnerOnly lists the permissions no role can grant: only the account's owner holds
// them.
var OwnerOnly = []Permission{AuditView, WalletAlert}

// Covers reports whether the identity holds every one of perms: a colleague may
// hand on only what they hold.
func (id Identity) Covers(perms []Permission) bool {
	for _, p := range perms {
		if !id.Can(p) {
			return false
		}
	}
	return true
}
