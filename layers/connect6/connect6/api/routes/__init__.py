"""The HTTP routes, one Powertools router per function (as Powertools' split-route example): a
function's handler makes the resolver (:func:`connect6.api.resolver.make_app`) and includes its
router. Each route validates its input, makes one call into the game service and answers with the
response model the service built."""
