; sbpl-recorder.scm — the SBPL forms the generator writes, as recorders,
; for TinyScheme (the interpreter family Apple's libsandbox embeds to read
; profiles).  tests/seatbelt/tinyscheme.sh loads this, then a profile, then
; prints what was recorded; it must equal the project's own reader's view.
;
; Only the vocabulary the generator uses is defined: any other form or
; keyword in a profile is an unbound variable here, so an error, as it
; would be for Seatbelt.  Operations are quoted by allow/deny, filters are
; functions that return themselves as data, and strings stay data.

(define *forms* '())
(define (record! form) (set! *forms* (cons form *forms*)))

(define-macro (version . args) `(record! (cons 'version ',args)))
(define-macro (allow operation . filters)
  `(record! (cons 'allow (cons ',operation (list ,@filters)))))
(define-macro (deny operation . filters)
  `(record! (cons 'deny (cons ',operation (list ,@filters)))))

(define (recorder name) (lambda args (cons name args)))
(define subpath (recorder 'subpath))
(define literal (recorder 'literal))
(define require-not (recorder 'require-not))
(define require-all (recorder 'require-all))
(define require-any (recorder 'require-any))
(define global-name (recorder 'global-name))
(define vnode-type (recorder 'vnode-type))
(define target (recorder 'target))
(define remote (recorder 'remote))
(define local (recorder 'local))
(define regex (recorder 'regex))
(define extension (recorder 'extension))

; Keywords that stand as bare symbols inside filters.
(define ip 'ip)
(define same-sandbox 'same-sandbox)
(define CHARACTER-DEVICE 'CHARACTER-DEVICE)

(define (print-recorded)
  (for-each (lambda (form) (write form) (newline)) (reverse *forms*)))
