"""Discord presentation: text, embeds and components. No game rules live here."""
