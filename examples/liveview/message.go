// message.go holds the live view's translatable messages: what the server
// says to the page (a control's answer, a request's result, a note in the
// feed) travels as a message key with arguments, which the page renders in
// the reader's language (web/i18n.js, keys "m.*"), and as English text for
// curl, logs and tests. Errors the page shows carry a message too.
//
// client-go counterpart: none.
// Tutorial: none (it is how the page speaks two languages).

package main

import (
	"errors"
	"fmt"
)

// message is one translatable sentence: Msg names it in web/i18n.js, Args
// fill its {name} slots, Text is the same sentence in English.
type message struct {
	Msg  string            `json:"msg,omitempty"`
	Args map[string]string `json:"args,omitempty"`
	Text string            `json:"text"`
}

// msg makes a message; args are name, value pairs.
func msg(key, text string, args ...string) message {
	m := message{Msg: key, Text: text}
	if len(args) > 0 {
		m.Args = map[string]string{}
		for i := 0; i+1 < len(args); i += 2 {
			m.Args[args[i]] = args[i+1]
		}
	}
	return m
}

// plain is a message that needs no translation: a key, a number.
func plain(text string) message { return message{Text: text} }

// msgError is an error the page can show in the reader's language.
type msgError struct{ message }

func (e msgError) Error() string { return e.Text }

// refuse returns the error of a control that cannot run now.
func refuse(key, text string, args ...string) error { return msgError{msg(key, text, args...)} }

// messageOf returns the message of err: its own, or err's text.
func messageOf(err error) message {
	var m msgError
	if errors.As(err, &m) {
		return m.message
	}
	return plain(err.Error())
}

// badRequest returns the error of a control given bad input.
func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errBadRequest}, args...)...)
}
