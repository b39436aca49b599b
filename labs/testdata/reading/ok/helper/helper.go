// helper.go is a package whose name is not the last element of its path.

package helpertools

// Want is what Greet should say.
func Want(name string) string { return "hello, " + name }
