package httpapi

import (
	"context"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/phonebook"
)

// The contacts handlers (spec §7 Phonebook) take the service as an argument, like
// the report handlers.

// contactsActor is the caller, for the audit log of contact changes.
func contactsActor(c *gin.Context) phonebook.Actor {
	return phonebook.Actor{Identity: who(c), IP: c.ClientIP()}
}

// deleteByIDs is a delete-list route {"ids":[…]} → {"deleted": n}: phonebooks,
// tags and features.
func deleteByIDs(del func(context.Context, phonebook.Actor, []int64) (int, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			IDs flexIDs `json:"ids"`
		}
		if !bind(c, &in) {
			return
		}
		n, err := del(c.Request.Context(), contactsActor(c), in.IDs.ints())
		deletedCount(c, n, err)
	}
}

// POST /phonebooks {"name","code"?}
func phonebookCreate(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in phonebook.PhonebookInput
		if !bind(c, &in) {
			return
		}
		p, err := svc.CreatePhonebook(c.Request.Context(), contactsActor(c), in)
		if err != nil {
			Fail(c, err)
			return
		}
		Created(c, p)
	}
}

// POST /phonebooks/update {"id","name","code"?}
func phonebookUpdate(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			ID flexID `json:"id"`
			phonebook.PhonebookInput
		}
		if !bind(c, &in) {
			return
		}
		p, err := svc.UpdatePhonebook(c.Request.Context(), contactsActor(c), int64(in.ID), in.PhonebookInput)
		reply(c, p, err)
	}
}

// GET /phonebooks/list-new?page=&limit=&search=
func phonebookList(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		pg, err := phonebook.ParsePage(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		rows, total, err := svc.Phonebooks(c.Request.Context(), who(c).AccountID, c.Query("search"), pg)
		pagedReply(c, rows, total, pg, err)
	}
}

// GET /phonebooks/options/list-new?search= and, with all, /phonebooks/options-with-default
// (the "all contacts" option, value 0, first).
func phonebookOptions(svc *phonebook.Service, all bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		opts, err := svc.Options(c.Request.Context(), who(c).AccountID, c.Query("search"))
		if all && err == nil {
			opts = append([]phonebook.Option{{Label: phonebook.AllContactsLabel, Value: 0}}, opts...)
		}
		reply(c, opts, err)
	}
}

// GET /phonebooks/numbers/count?phonebook_ids=1,2
func phonebookCount(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		ids, err := phonebook.ParseIDList("phonebook_ids", c.Query("phonebook_ids"))
		if err != nil {
			Fail(c, err)
			return
		}
		n, err := svc.Count(c.Request.Context(), who(c).AccountID, ids)
		reply(c, n, err)
	}
}

// POST /phonebooks/numbers/add-list-new {"phonebook_id","contacts":[…]}
func contactAdd(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			PhonebookID flexID                   `json:"phonebook_id"`
			Contacts    []phonebook.ContactInput `json:"contacts"`
		}
		if !bind(c, &in) {
			return
		}
		res, err := svc.AddContacts(c.Request.Context(), contactsActor(c), int64(in.PhonebookID), in.Contacts)
		if err != nil {
			Fail(c, err)
			return
		}
		Created(c, res)
	}
}

// POST /phonebooks/numbers/update-new {"id","phonebook_id"?, …contact fields…}
func contactUpdate(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			ID          flexID `json:"id"`
			PhonebookID flexID `json:"phonebook_id"`
			phonebook.ContactInput
		}
		if !bind(c, &in) {
			return
		}
		ct, err := svc.UpdateContact(c.Request.Context(), contactsActor(c), int64(in.ID), int64(in.PhonebookID), in.ContactInput)
		reply(c, ct, err)
	}
}

// POST /phonebooks/numbers/delete-list {"ids":[…]} or {"phonebook_id","all":true}
func contactDelete(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			IDs         flexIDs `json:"ids"`
			PhonebookID flexID  `json:"phonebook_id"`
			All         bool    `json:"all"`
		}
		if !bind(c, &in) {
			return
		}
		if in.All {
			n, err := svc.ClearPhonebook(c.Request.Context(), contactsActor(c), int64(in.PhonebookID))
			deletedCount(c, n, err)
			return
		}
		n, err := svc.DeleteContacts(c.Request.Context(), contactsActor(c), in.IDs.ints())
		deletedCount(c, n, err)
	}
}

// GET /phonebooks/numbers/contact-list?phonebook_id=&search=&…filters&page=&limit=
// meta.indexing is true while the account's name search catches up with an import.
func contactList(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := phonebook.ParseFilter(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		ctx, acc := c.Request.Context(), who(c).AccountID
		rows, total, err := svc.Contacts(ctx, acc, f)
		if err != nil {
			Fail(c, err)
			return
		}
		indexing, err := svc.Indexing(ctx, acc)
		if err != nil {
			Fail(c, err)
			return
		}
		Paged(c, rows, Page{Page: f.Page.Page, Limit: f.Page.Limit, Total: total, Indexing: &indexing})
	}
}

// GET /phonebooks/numbers/list?phonebook_id=&page=&limit=
func numberList(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
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
		rows, total, err := svc.Numbers(c.Request.Context(), who(c).AccountID, book, pg)
		pagedReply(c, rows, total, pg, err)
	}
}

// GET /phonebooks/numbers/tags?search=
func tagList(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		tags, err := svc.Tags(c.Request.Context(), who(c).AccountID, c.Query("search"))
		reply(c, tags, err)
	}
}

// POST /phonebooks/numbers/tags {"name"}
func tagCreate(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			Name string `json:"name"`
		}
		if !bind(c, &in) {
			return
		}
		t, err := svc.CreateTag(c.Request.Context(), contactsActor(c), in.Name)
		if err != nil {
			Fail(c, err)
			return
		}
		Created(c, t)
	}
}

// GET /phonebooks/options?page=&limit=
func featureList(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		pg, err := phonebook.ParsePage(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		rows, total, err := svc.Features(c.Request.Context(), who(c).AccountID, pg)
		pagedReply(c, rows, total, pg, err)
	}
}

// POST /phonebooks/options {"id"?, "title_fa","title_en","type","enabled","flows"}
func featureSave(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			ID flexID `json:"id"`
			phonebook.FeatureInput
		}
		if !bind(c, &in) {
			return
		}
		in.FeatureInput.ID = int64(in.ID)
		f, created, err := svc.SaveFeature(c.Request.Context(), contactsActor(c), in.FeatureInput)
		switch {
		case err != nil:
			Fail(c, err)
		case created:
			Created(c, f)
		default:
			OK(c, f)
		}
	}
}

// GET /phonebooks/blacklist?kind=&search=&page=&limit=
func listEntries(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		q, err := phonebook.ParseListQuery(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		rows, total, err := svc.ListEntries(c.Request.Context(), who(c).AccountID, q)
		pagedReply(c, rows, total, q.Page, err)
	}
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
func listAdd(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in listChange
		if !bind(c, &in) {
			return
		}
		added, skipped, err := svc.AddToList(c.Request.Context(), contactsActor(c), in.Kind, in.numbers())
		if err != nil {
			Fail(c, err)
			return
		}
		Created(c, gin.H{"added": added, "skipped": skipped})
	}
}

// POST /phonebooks/blacklist/delete-list {"numbers":[…],"kind"}
func listRemove(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in listChange
		if !bind(c, &in) {
			return
		}
		n, err := svc.RemoveFromList(c.Request.Context(), contactsActor(c), in.Kind, in.numbers())
		deletedCount(c, n, err)
	}
}

// POST /phonebooks/numbers/import {"file_id","phonebook_id","mapping":{…}} → 202
func importStart(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			FileID      flexID                  `json:"file_id"`
			PhonebookID flexID                  `json:"phonebook_id"`
			Mapping     phonebook.ImportMapping `json:"mapping"`
		}
		if !bind(c, &in) {
			return
		}
		im, err := svc.StartImport(c.Request.Context(), contactsActor(c), phonebook.ImportRequest{
			FileID: int64(in.FileID), PhonebookID: int64(in.PhonebookID), Mapping: in.Mapping})
		if err != nil {
			Fail(c, err)
			return
		}
		write(c, http.StatusAccepted, im, Meta{})
	}
}

// GET /phonebooks/numbers/import/sample
func importSample(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		xlsxDownload(c, "contacts-sample.xlsx", func(w io.Writer) error {
			return svc.WriteImportSample(c.Request.Context(), who(c).AccountID, w)
		})
	}
}

// GET /phonebooks/numbers/export?…contact-list filters
func contactExport(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := phonebook.ParseFilter(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		xlsxDownload(c, "contacts.xlsx", func(w io.Writer) error {
			return svc.WriteContactsXLSX(c.Request.Context(), who(c).AccountID, f, w)
		})
	}
}

// GET /phonebooks/blacklist/export?kind=
func listExport(svc *phonebook.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		kind := c.DefaultQuery("kind", phonebook.ListSend)
		xlsxDownload(c, kind+"-list.xlsx", func(w io.Writer) error {
			return svc.WriteListXLSX(c.Request.Context(), who(c).AccountID, kind, w)
		})
	}
}
