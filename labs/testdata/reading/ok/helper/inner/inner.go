// inner.go is a package below helper that nothing imports.

package inner
