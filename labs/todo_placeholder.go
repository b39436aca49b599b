package main

func cmdReference(args []string) error    { return nil }
func cmdHandoutCheck(args []string) error { return nil }
func cmdLeakCheck(args []string) error    { return nil }
