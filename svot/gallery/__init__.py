"""A static HTML gallery of an exported dataset: look at the instances, offline.

::

    from svot.gallery import build_gallery
    build_gallery("data/", "gallery/", per_page=20)   # then open gallery/index.html
    build_gallery("data/", "gallery/", predictions="preds.jsonl")   # with a model's answers

or ``svot gallery data/ --out gallery/ [--predictions preds.jsonl]``. Every
instance, ``per_page`` to a page (step images that enlarge on click, actions,
goal, prompt, state texts, reasoning chains, the four choices with the correct
one marked; with predictions, the model's answers beside them), an index, a
search by id, a client-side filter by domain, size and split
(``index.html#domain=<name>&split=test_id``), PNG files next to the pages and
relative links only: it works from ``file://`` with no network. The same data
gives the same bytes. See :mod:`svot.gallery.build` for the layout and
:mod:`svot.gallery.assets` for what the page script does.
"""

from svot.gallery.build import DEFAULT_PER_PAGE, GalleryResult, build_gallery
from svot.gallery.data import SplitSource, find_splits, read_cards, read_samples, sample_indices
from svot.gallery.predictions import read_predictions, score_card

__all__ = ["DEFAULT_PER_PAGE", "GalleryResult", "SplitSource", "build_gallery", "find_splits", "read_cards",
           "read_predictions", "read_samples", "sample_indices", "score_card"]
