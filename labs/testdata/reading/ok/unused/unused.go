// unused.go is a package that nothing imports.

package unused
