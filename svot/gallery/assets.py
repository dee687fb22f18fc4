"""The gallery's stylesheet and script: ``static/gallery.css`` and ``static/gallery.js`` (package data),
written once to ``assets/`` of every gallery (no CDN, no web fonts).

The script works from ``file://``: it reads the JSON embedded in the page
(``<script type="application/json" id="svot-data">``), never fetches anything.

* **Filter.** ``#domain=<name>&split=test_id`` (also ``size=5``; a value may
  list several, ``split=test_id,test_ood``; a ``?query`` works the same when
  there is no hash) hides every ``.card`` whose ``data-domain`` / ``data-size`` /
  ``data-split`` does not match. On the index the selects filter in place (and
  update the hash); on a dataset page they open the page of the chosen
  domain × size × split (or the index, filtered, when there is none).
  ``<body data-filter="...">`` and ``#svot-count`` show what is applied.
* **Predictions.** ``#wrong=1`` shows only the cards with a wrong prediction
  (``data-wrong`` not empty), ``#metric=answer`` only those where that metric
  was predicted (with ``wrong=1``: was wrong). They filter the page in place.
* **Search.** ``#svot-search-input`` looks ids up in ``search-index.js``
  (``window.SVOT_IDS``, ``[id, page]`` pairs; a script, so it loads from
  ``file://``) and lists links to ``page#id``; Enter opens the only or exact
  match. ``#q=<text>`` fills it in from the URL. The card named by the URL's
  ``#<id>`` gets the class ``target``.
* **Enlarge.** Clicking an image in ``main`` opens ``#svot-lightbox`` with it at
  full size and its alt text; a click, Escape or the close button closes it.
* **Image check.** After ``load``, ``#svot-status`` gets ``data-images-total``,
  ``data-images-loaded`` (``complete && naturalWidth > 0``) and
  ``data-images-broken``, and says so in words; ``data-ready="1"`` marks it done.
"""

from __future__ import annotations

from importlib.resources import files

_STATIC = files("svot.gallery") / "static"

CSS = (_STATIC / "gallery.css").read_text(encoding="utf-8")
JS = (_STATIC / "gallery.js").read_text(encoding="utf-8")
