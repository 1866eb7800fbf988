"""What stands in front of Django in every server process: request bodies bounded
(``body_limit``), each visitor's share of the threads (``fair_share``), the checks every
websocket passes (``websockets``), and the response headers Django has no setting for
(``middleware``)."""
