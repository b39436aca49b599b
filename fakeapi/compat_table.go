// compat_table.go (compatibility layer): server-side printing: answering with
// a meta.k8s.io Table. (Which form a client asked for is read in
// compat_negotiate.go.)
//
// `kubectl get` sends `Accept: application/json;as=Table;v=v1;g=meta.k8s.io,
// ...,application/json`: it asks for a Table first and plain JSON second.
// Given a Table, kubectl prints the server's columns (READY, STATUS, ...)
// as they are; given plain JSON it can only print NAME and AGE. So the real
// server decides what `kubectl get` shows, and so does this one: lists, single
// objects, write answers and watch events all become Tables when asked. Each
// row carries its object's metadata (a PartialObjectMetadata), or the whole
// object with `includeObject=Object`, or nothing with `includeObject=None`;
// kubectl reads the namespace and labels from it (-A, --show-labels). In a
// watch, as on the real server, only the first event carries the column
// definitions; every event is a Table of one row. The columns are in compat_printers.go.
// Counterparts: metav1.Table and the apiserver's response transformation
// (k8s.io/apiserver/pkg/endpoints/handlers/response.go);
// on the client, kubectl get's table printer. Tutorial: none.

package fakeapi

import "time"

// table is a meta.k8s.io Table, its fields in the real server's order.
// ColumnDefinitions is null in every watch event but the first.
type table struct {
	Kind              string         `json:"kind"`
	APIVersion        string         `json:"apiVersion"`
	Metadata          map[string]any `json:"metadata"`
	ColumnDefinitions []column       `json:"columnDefinitions"`
	Rows              []tableRow     `json:"rows"`
}

// tableRow is one object: its cells, and the object as includeObject asks
// (null for None).
type tableRow struct {
	Cells  []any `json:"cells"`
	Object any   `json:"object"`
}

// newTable starts an empty Table of p's columns (none when withColumns is
// false) whose metadata is meta.
func (rd *rendering) newTable(p *printer, meta map[string]any, withColumns bool) *table {
	t := &table{Kind: "Table", APIVersion: rd.apiVersion, Metadata: meta, Rows: []tableRow{}}
	if withColumns {
		t.ColumnDefinitions = p.columns
	}
	return t
}

// addRow appends body's row. body is only read: it may be a stored object.
func (rd *rendering) addRow(t *table, p *printer, body map[string]any, now time.Time) {
	row := tableRow{Cells: p.cells(body, now)}
	switch rd.include {
	case "Object":
		row.Object = body
	case "Metadata":
		row.Object = rd.partial(body)
	}
	t.Rows = append(t.Rows, row)
}

// listTable is list l of ri as a Table: the list's version, continue token
// and remaining count, one row per item.
func (rd *rendering) listTable(ri *resourceInfo, l *listBody) *table {
	p, now := printerFor(ri), time.Now()
	t := rd.newTable(p, l.Metadata, true)
	for _, o := range l.objs {
		rd.addRow(t, p, o.body, now)
	}
	return t
}

// objectTable is one object of ri as a Table at the object's own version.
// withColumns is false for every watch event but the first.
func (rd *rendering) objectTable(ri *resourceInfo, body map[string]any, withColumns bool) *table {
	p := printerFor(ri)
	meta := map[string]any{"resourceVersion": str(dig(body, "metadata", "resourceVersion"))}
	t := rd.newTable(p, meta, withColumns)
	rd.addRow(t, p, body, time.Now())
	return t
}
