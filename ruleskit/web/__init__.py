"""Playing and replaying packs in a web browser: `ruleskit serve`.

`table` and `events` hold a game for several seats without any web code;
`app` puts them behind a Starlette application (the optional `web` extra);
`static/` is the page, plain HTML, CSS and JavaScript with no build step.
"""
