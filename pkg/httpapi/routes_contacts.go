package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// contactRoutes lists the phonebook, contact, tag, feature and list routes.
func (s *Server) contactRoutes() []Route {
	return []Route{
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
	}
}
