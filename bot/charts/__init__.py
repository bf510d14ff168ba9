"""Charts: the data behind each picture as plain values (`data`), what a worker draws
(`spec`), the drawing itself (`draw`, matplotlib, imported only in a chart worker) and the
small pool of worker processes that draws them (`pool`), so the bot's event loop never waits on
a figure and its process never imports matplotlib."""
