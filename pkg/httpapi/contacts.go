package httpapi

import (
	"context"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/phonebook"
)

// contactRoutes lists the phonebook, contact, tag, feature and list routes.
func (s *Server) contactRoutes() []Route {
	return []Route{
		// Contacts (spec §7 Phonebook).
		{http.MethodPost, "/phonebooks", acl.PhonebookManage, s.phonebookCreate},
		{http.MethodPost, "/phonebooks/update", acl.PhonebookManage, s.phonebookUpdate},
		{http.MethodPost, "/phonebooks/delete-list", acl.PhonebookManage, s.phonebookDelete},
		{http.MethodGet, "/phonebooks/list-new", acl.PhonebookView, s.phonebookList},
		{http.MethodGet, "/phonebooks/:id", acl.PhonebookView, getByID(s.Phonebooks.Phonebook)},
		{http.MethodGet, "/phonebooks/options/list-new", acl.PhonebookView, s.phonebookOptions(false)},
		{http.MethodGet, "/phonebooks/options-with-default", acl.PhonebookView, s.phonebookOptions(true)},
		{http.MethodGet, "/phonebooks/numbers/count", acl.PhonebookView, s.phonebookCount},
		{http.MethodPost, "/phonebooks/numbers/add-list-new", acl.PhonebookManage, s.contactAdd},
		{http.MethodPost, "/phonebooks/numbers/update-new", acl.PhonebookManage, s.contactUpdate},
		{http.MethodPost, "/phonebooks/numbers/delete-list", acl.PhonebookManage, s.contactDelete},
		{http.MethodGet, "/phonebooks/numbers/contact-list", acl.PhonebookView, s.contactList},
		{http.MethodGet, "/phonebooks/numbers/:id", acl.PhonebookView, getByID(s.Phonebooks.Contact)},
		{http.MethodGet, "/phonebooks/numbers/list", acl.PhonebookView, s.numberList},
		{http.MethodGet, "/phonebooks/numbers/tags", acl.PhonebookView, s.tagList},
		{http.MethodPost, "/phonebooks/numbers/tags", acl.PhonebookManage, s.tagCreate},
		{http.MethodPost, "/phonebooks/tags/delete-list", acl.PhonebookManage, s.tagDelete},
		{http.MethodGet, "/phonebooks/options", acl.PhonebookView, s.featureList},
		{http.MethodPost, "/phonebooks/options", acl.PhonebookManage, s.featureSave},
		{http.MethodPost, "/phonebooks/options/delete-list", acl.PhonebookManage, s.featureDelete},
		{http.MethodGet, "/phonebooks/blacklist", acl.PhonebookView, s.listEntries},
		{http.MethodPost, "/phonebooks/blacklist", acl.PhonebookManage, s.listAdd},
		{http.MethodPost, "/phonebooks/blacklist/delete-list", acl.PhonebookManage, s.listRemove},
		{http.MethodGet, "/phonebooks/blacklist/export", acl.PhonebookView, s.listExport},
		{http.MethodPost, "/phonebooks/numbers/import", acl.PhonebookManage, s.importStart},
		{http.MethodGet, "/phonebooks/numbers/import/sample", acl.PhonebookView, s.importSample},
		{http.MethodGet, "/phonebooks/numbers/import/:id", acl.PhonebookView, getByID(s.Phonebooks.ImportState)},
		{http.MethodGet, "/phonebooks/numbers/export", acl.PhonebookView, s.contactExport},
	}
}

// contactsActor is the caller, for the audit log of contact changes.
func contactsActor(c *gin.Context) phonebook.Actor {
	return phonebook.Actor{Identity: who(c), IP: c.ClientIP()}
}

// deleteByIDs answers a delete-list route {"ids":[…]} → {"deleted": n}: phonebooks,
// tags and features.
func deleteByIDs(c *gin.Context, del func(context.Context, phonebook.Actor, []int64) (int, error)) {
	var in struct {
		IDs flexIDs `json:"ids"`
	}
	if !bind(c, &in) {
		return
	}
	n, err := del(c.Request.Context(), contactsActor(c), in.IDs.ints())
	deletedCount(c, n, err)
}

// POST /phonebooks/delete-list {"ids":[…]}
func (s *Server) phonebookDelete(c *gin.Context) { deleteByIDs(c, s.Phonebooks.DeletePhonebooks) }

// POST /phonebooks/tags/delete-list {"ids":[…]}
func (s *Server) tagDelete(c *gin.Context) { deleteByIDs(c, s.Phonebooks.DeleteTags) }

// POST /phonebooks/options/delete-list {"ids":[…]}
func (s *Server) featureDelete(c *gin.Context) { deleteByIDs(c, s.Phonebooks.DeleteFeatures) }

// POST /phonebooks {"name","code"?}
func (s *Server) phonebookCreate(c *gin.Context) {
	var in phonebook.PhonebookInput
	if !bind(c, &in) {
		return
	}
	p, err := s.Phonebooks.CreatePhonebook(c.Request.Context(), contactsActor(c), in)
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, p)
}

// POST /phonebooks/update {"id","name","code"?}
func (s *Server) phonebookUpdate(c *gin.Context) {
	var in struct {
		ID flexID `json:"id"`
		phonebook.PhonebookInput
	}
	if !bind(c, &in) {
		return
	}
	p, err := s.Phonebooks.UpdatePhonebook(c.Request.Context(), contactsActor(c), int64(in.ID), in.PhonebookInput)
	reply(c, p, err)
}

// GET /phonebooks/list-new?page=&limit=&search=
func (s *Server) phonebookList(c *gin.Context) {
	pg, err := phonebook.ParsePage(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Phonebooks.Phonebooks(c.Request.Context(), who(c).AccountID, c.Query("search"), pg)
	pagedReply(c, rows, total, pg, err)
}

// GET /phonebooks/options/list-new?search= and, with all, /phonebooks/options-with-default
// (the "all contacts" option, value 0, first).
func (s *Server) phonebookOptions(all bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		opts, err := s.Phonebooks.Options(c.Request.Context(), who(c).AccountID, c.Query("search"))
		if all && err == nil {
			opts = append([]phonebook.Option{{Label: phonebook.AllContactsLabel, Value: 0}}, opts...)
		}
		reply(c, opts, err)
	}
}

// GET /phonebooks/numbers/count?phonebook_ids=1,2
func (s *Server) phonebookCount(c *gin.Context) {
	ids, err := phonebook.ParseIDList("phonebook_ids", c.Query("phonebook_ids"))
	if err != nil {
		Fail(c, err)
		return
	}
	n, err := s.Phonebooks.Count(c.Request.Context(), who(c).AccountID, ids)
	reply(c, n, err)
}

// POST /phonebooks/numbers/add-list-new {"phonebook_id","contacts":[…]}
func (s *Server) contactAdd(c *gin.Context) {
	var in struct {
		PhonebookID flexID                   `json:"phonebook_id"`
		Contacts    []phonebook.ContactInput `json:"contacts"`
	}
	if !bind(c, &in) {
		return
	}
	res, err := s.Phonebooks.AddContacts(c.Request.Context(), contactsActor(c), int64(in.PhonebookID), in.Contacts)
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, res)
}

// POST /phonebooks/numbers/update-new {"id","phonebook_id"?, …contact fields…}
func (s *Server) contactUpdate(c *gin.Context) {
	var in struct {
		ID          flexID `json:"id"`
		PhonebookID flexID `json:"phonebook_id"`
		phonebook.ContactInput
	}
	if !bind(c, &in) {
		return
	}
	ct, err := s.Phonebooks.UpdateContact(c.Request.Context(), contactsActor(c), int64(in.ID), int64(in.PhonebookID), in.ContactInput)
	reply(c, ct, err)
}

// POST /phonebooks/numbers/delete-list {"ids":[…]} or {"phonebook_id","all":true}
func (s *Server) contactDelete(c *gin.Context) {
	var in struct {
		IDs         flexIDs `json:"ids"`
		PhonebookID flexID  `json:"phonebook_id"`
		All         bool    `json:"all"`
	}
	if !bind(c, &in) {
		return
	}
	if in.All {
		n, err := s.Phonebooks.ClearPhonebook(c.Request.Context(), contactsActor(c), int64(in.PhonebookID))
		deletedCount(c, n, err)
		return
	}
	n, err := s.Phonebooks.DeleteContacts(c.Request.Context(), contactsActor(c), in.IDs.ints())
	deletedCount(c, n, err)
}

// GET /phonebooks/numbers/contact-list?phonebook_id=&search=&…filters&page=&limit=
// meta.indexing is true while the account's name search catches up with an import.
func (s *Server) contactList(c *gin.Context) {
	f, err := phonebook.ParseFilter(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	p, err := s.Phonebooks.ContactList(c.Request.Context(), who(c).AccountID, f)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, p.Rows, Page{Page: f.Page.Page, Limit: f.Page.Limit, Total: p.Total, Indexing: &p.Indexing})
}

// GET /phonebooks/numbers/list?phonebook_id=&page=&limit=
func (s *Server) numberList(c *gin.Context) {
	q := c.Request.URL.Query()
	pg, err := phonebook.ParsePage(q)
	if err != nil {
		Fail(c, err)
		return
	}
	book, err := phonebook.ParseID("phonebook_id", q.Get("phonebook_id"))
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Phonebooks.Numbers(c.Request.Context(), who(c).AccountID, book, pg)
	pagedReply(c, rows, total, pg, err)
}

// GET /phonebooks/numbers/tags?search=
func (s *Server) tagList(c *gin.Context) {
	tags, err := s.Phonebooks.Tags(c.Request.Context(), who(c).AccountID, c.Query("search"))
	reply(c, tags, err)
}

// POST /phonebooks/numbers/tags {"name"}
func (s *Server) tagCreate(c *gin.Context) {
	var in struct {
		Name string `json:"name"`
	}
	if !bind(c, &in) {
		return
	}
	t, err := s.Phonebooks.CreateTag(c.Request.Context(), contactsActor(c), in.Name)
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, t)
}

// GET /phonebooks/options?page=&limit=
func (s *Server) featureList(c *gin.Context) {
	pg, err := phonebook.ParsePage(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Phonebooks.Features(c.Request.Context(), who(c).AccountID, pg)
	pagedReply(c, rows, total, pg, err)
}

// POST /phonebooks/options {"id"?, "title_fa","title_en","type","enabled","flows"}
func (s *Server) featureSave(c *gin.Context) {
	var in struct {
		ID flexID `json:"id"`
		phonebook.FeatureInput
	}
	if !bind(c, &in) {
		return
	}
	in.FeatureInput.ID = int64(in.ID)
	f, created, err := s.Phonebooks.SaveFeature(c.Request.Context(), contactsActor(c), in.FeatureInput)
	switch {
	case err != nil:
		Fail(c, err)
	case created:
		Created(c, f)
	default:
		OK(c, f)
	}
}

// GET /phonebooks/blacklist?kind=&search=&page=&limit=
func (s *Server) listEntries(c *gin.Context) {
	q, err := phonebook.ParseListQuery(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Phonebooks.ListEntries(c.Request.Context(), who(c).AccountID, q)
	pagedReply(c, rows, total, q.Page, err)
}

// listChange is the body of the list changes.
type listChange struct {
	Numbers []phonebook.Text `json:"numbers"`
	Kind    string           `json:"kind"`
}

func (l listChange) numbers() []string {
	out := make([]string, len(l.Numbers))
	for i, n := range l.Numbers {
		out[i] = string(n)
	}
	return out
}

// POST /phonebooks/blacklist {"numbers":[…],"kind"}
func (s *Server) listAdd(c *gin.Context) {
	var in listChange
	if !bind(c, &in) {
		return
	}
	added, skipped, err := s.Phonebooks.AddToList(c.Request.Context(), contactsActor(c), in.Kind, in.numbers())
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, gin.H{"added": added, "skipped": skipped})
}

// POST /phonebooks/blacklist/delete-list {"numbers":[…],"kind"}
func (s *Server) listRemove(c *gin.Context) {
	var in listChange
	if !bind(c, &in) {
		return
	}
	n, err := s.Phonebooks.RemoveFromList(c.Request.Context(), contactsActor(c), in.Kind, in.numbers())
	deletedCount(c, n, err)
}

// POST /phonebooks/numbers/import {"file_id","phonebook_id","mapping":{…}} → 202
func (s *Server) importStart(c *gin.Context) {
	var in struct {
		FileID      flexID                  `json:"file_id"`
		PhonebookID flexID                  `json:"phonebook_id"`
		Mapping     phonebook.ImportMapping `json:"mapping"`
	}
	if !bind(c, &in) {
		return
	}
	im, err := s.Phonebooks.StartImport(c.Request.Context(), contactsActor(c), phonebook.ImportRequest{
		FileID: int64(in.FileID), PhonebookID: int64(in.PhonebookID), Mapping: in.Mapping})
	if err != nil {
		Fail(c, err)
		return
	}
	write(c, http.StatusAccepted, im, Meta{})
}

// GET /phonebooks/numbers/import/sample
func (s *Server) importSample(c *gin.Context) {
	xlsxDownload(c, "contacts-sample.xlsx", func(w io.Writer) error {
		return s.Phonebooks.WriteImportSample(c.Request.Context(), who(c).AccountID, w)
	})
}

// GET /phonebooks/numbers/export?…contact-list filters
func (s *Server) contactExport(c *gin.Context) {
	f, err := phonebook.ParseFilter(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	xlsxDownload(c, "contacts.xlsx", func(w io.Writer) error {
		return s.Phonebooks.WriteContactsXLSX(c.Request.Context(), who(c).AccountID, f, w)
	})
}

// GET /phonebooks/blacklist/export?kind=
func (s *Server) listExport(c *gin.Context) {
	kind := c.DefaultQuery("kind", phonebook.ListSend)
	xlsxDownload(c, kind+"-list.xlsx", func(w io.Writer) error {
		return s.Phonebooks.WriteListXLSX(c.Request.Context(), who(c).AccountID, kind, w)
	})
}
