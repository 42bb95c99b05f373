package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// routes is the route table: every route declares its permission.
func (s *Server) routes() []Route {
	return []Route{
		// Accounts and login (spec §7 Auth).
		{http.MethodPost, "/user/check_exist", acl.Public, s.checkExist},
		{http.MethodPost, "/user/register", acl.Public, s.register},
		{http.MethodPost, "/user/register/verify", acl.Public, s.verifyRegistration},
		{http.MethodPost, "/acl/auth/login", acl.Public, s.login},
		{http.MethodPost, "/acl/auth/send_sms_otp", acl.Public, s.sendOTP},
		{http.MethodPost, "/acl/auth/confirm_otp", acl.Public, s.confirmOTP},
		{http.MethodPost, "/acl/auth/forgot_password", acl.Public, s.forgotPassword},
		{http.MethodPost, "/acl/auth/forgot_password_check_otp", acl.Public, s.forgotPasswordCheckOTP},
		{http.MethodPost, "/acl/auth/change_password_by_token", acl.Public, s.changePasswordByToken},
		{http.MethodGet, "/acl/auth/login_setting", acl.Public, s.loginSetting},
		{http.MethodPost, "/acl/auth/logout", acl.Authenticated, s.logout},
		{http.MethodGet, "/acl/auth/check_token", acl.Authenticated, s.checkToken},
		{http.MethodPost, "/acl/auth/external_login/issue", acl.Authenticated, s.issueExternalCode},
		{http.MethodPost, "/acl/auth/external_login/preview", acl.Public, s.previewExternalLogin},
		{http.MethodPost, "/acl/auth/external_login", acl.Public, s.externalLogin},
		{http.MethodPost, "/live/ticket", acl.Authenticated, s.liveTicket},

		// Two-step login settings (spec §7 Account).
		{http.MethodGet, "/user/2fa", acl.Authenticated, s.twoStepStatus},
		{http.MethodGet, "/user/2fa/show_qr", acl.Authenticated, s.showQR},
		{http.MethodPost, "/user/2fa/enable", acl.Authenticated, s.enableTwoStep},
		{http.MethodPost, "/user/2fa/disable", acl.Authenticated, s.disableTwoStep},

		// Money and sender lines.
		{http.MethodGet, "/payment/credit/mine", acl.WalletView, s.credit},
		{http.MethodGet, "/number/numbers", acl.NumberView, s.lines},
		{http.MethodPost, "/numbers/defaults/upsert", acl.NumberManage, s.setDefaultLine},

		// Sending (api-contract.md "Sending").
		{http.MethodPost, "/send/calculate-price", acl.SendCreate, s.calculatePrice},
		{http.MethodPost, "/send", acl.SendCreate, s.createSend},
		{http.MethodPost, "/send/cancel", acl.SendCancel, s.cancelSend},
		{http.MethodPost, "/send/pause", acl.SendCancel, s.pauseSend},
		{http.MethodPost, "/send/resume", acl.SendCancel, s.resumeSend},
		{http.MethodGet, "/send/scheduled", acl.ReportView, s.scheduledSends},
		{http.MethodPost, "/send/scheduled/update", acl.SendCreate, s.rescheduleSend},

		// Recurring campaigns.
		{http.MethodGet, "/send/campaigns", acl.ReportView, s.campaigns},
		{http.MethodPost, "/send/campaigns", acl.SendCreate, s.createCampaign},
		{http.MethodPost, "/send/campaigns/update", acl.SendCreate, s.updateCampaign},
		{http.MethodPost, "/send/campaigns/toggle", acl.SendCreate, s.toggleCampaign},
		{http.MethodPost, "/send/campaigns/delete", acl.SendCreate, s.deleteCampaign},
		{http.MethodGet, "/send/campaigns/:id/runs", acl.ReportView, s.campaignRuns},

		// Reports (spec §7 Reports).
		{http.MethodGet, "/report/new_list", acl.ReportView, reportList(s.Reports, false)},
		{http.MethodGet, "/report/archive_list", acl.ReportView, reportList(s.Reports, true)},
		{http.MethodGet, "/report/bulk_stats", acl.ReportView, reportBulkStats(s.Reports)},
		{http.MethodGet, "/report/archive_bulk_stats", acl.ReportView, reportBulkStats(s.Reports)},
		{http.MethodGet, "/report/by_bulk", acl.ReportView, reportByBulk(s.Reports)},
		{http.MethodGet, "/report/recipients", acl.ReportView, reportRecipients(s.Reports)},
		{http.MethodGet, "/report/download_recipients", acl.ReportView, reportDownloadRecipients(s.Reports)},

		// Contacts (spec §7 Phonebook).
		{http.MethodPost, "/phonebooks", acl.PhonebookManage, phonebookCreate(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/update", acl.PhonebookManage, phonebookUpdate(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/delete-list", acl.PhonebookManage, deleteByIDs(s.Phonebooks.DeletePhonebooks)},
		{http.MethodGet, "/phonebooks/list-new", acl.PhonebookView, phonebookList(s.Phonebooks)},
		{http.MethodGet, "/phonebooks/:id", acl.PhonebookView, getByID(s.Phonebooks.Phonebook)},
		{http.MethodGet, "/phonebooks/options/list-new", acl.PhonebookView, phonebookOptions(s.Phonebooks, false)},
		{http.MethodGet, "/phonebooks/options-with-default", acl.PhonebookView, phonebookOptions(s.Phonebooks, true)},
		{http.MethodGet, "/phonebooks/numbers/count", acl.PhonebookView, phonebookCount(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/numbers/add-list-new", acl.PhonebookManage, contactAdd(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/numbers/update-new", acl.PhonebookManage, contactUpdate(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/numbers/delete-list", acl.PhonebookManage, contactDelete(s.Phonebooks)},
		{http.MethodGet, "/phonebooks/numbers/contact-list", acl.PhonebookView, contactList(s.Phonebooks)},
		{http.MethodGet, "/phonebooks/numbers/:id", acl.PhonebookView, getByID(s.Phonebooks.Contact)},
		{http.MethodGet, "/phonebooks/numbers/list", acl.PhonebookView, numberList(s.Phonebooks)},
		{http.MethodGet, "/phonebooks/numbers/tags", acl.PhonebookView, tagList(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/numbers/tags", acl.PhonebookManage, tagCreate(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/tags/delete-list", acl.PhonebookManage, deleteByIDs(s.Phonebooks.DeleteTags)},
		{http.MethodGet, "/phonebooks/options", acl.PhonebookView, featureList(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/options", acl.PhonebookManage, featureSave(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/options/delete-list", acl.PhonebookManage, deleteByIDs(s.Phonebooks.DeleteFeatures)},
		{http.MethodGet, "/phonebooks/blacklist", acl.PhonebookView, listEntries(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/blacklist", acl.PhonebookManage, listAdd(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/blacklist/delete-list", acl.PhonebookManage, listRemove(s.Phonebooks)},
		{http.MethodGet, "/phonebooks/blacklist/export", acl.PhonebookView, listExport(s.Phonebooks)},
		{http.MethodPost, "/phonebooks/numbers/import", acl.PhonebookManage, importStart(s.Phonebooks)},
		{http.MethodGet, "/phonebooks/numbers/import/sample", acl.PhonebookView, importSample(s.Phonebooks)},
		{http.MethodGet, "/phonebooks/numbers/import/:id", acl.PhonebookView, getByID(s.Phonebooks.ImportState)},
		{http.MethodGet, "/phonebooks/numbers/export", acl.PhonebookView, contactExport(s.Phonebooks)},

		// Files (spec §7 Files; api-contract "Files and bulk sources").
		{http.MethodPost, "/user/files", acl.FileManage, s.uploadFile},
		{http.MethodGet, "/user/files", acl.FileManage, s.listFiles},
		{http.MethodGet, "/user/files/categories", acl.FileManage, s.fileCategories},
		{http.MethodGet, "/user/files/samples/:purpose", acl.FileManage, s.fileSample},
		{http.MethodPost, "/user/files/delete", acl.FileManage, s.deleteFile},
		{http.MethodGet, "/user/files/:id", acl.FileManage, s.getFile},
		{http.MethodGet, "/user/files/:id/download", acl.FileManage, s.downloadFile},
		{http.MethodGet, "/user/files/:id/errors/download", acl.FileManage, s.downloadFileErrors},

		// Colleagues and roles (spec §6).
		{http.MethodGet, "/acl/partner/permission_list", acl.PartnerManage, s.permissionList},
	}
}
