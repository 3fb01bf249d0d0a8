// The page's own words, in each language the shipped games speak (interpreter/messages.py has
// the same five): the table page speaks the table's language (the `lang` of its frames), so a
// game played in Norwegian has its buttons in Norwegian too.  A language not here, or a word
// missing from one, falls back to English.  The game's own texts (names, cards, the account,
// the server's refusals) come from the server already in the table's language.
//
// In the HTML, an element with data-say="key" gets the word as its text, one with
// data-say-label="key" as its aria-label.

export const WORDS = {
  en: {
    skip: "Skip to your moves", table: "Table", watching: "Watching", help: "Help",
    connecting: "Connecting…", connected: "Connected", lost: "Connection lost; trying again in {s} s",
    not_connected: "Not connected",
    hint: "Hint", rules: "Rules", close: "Close", abandon: "Abandon",
    abandon_question: "Abandon this game? It ends for every player, and cannot be taken back.",
    abandon_yes: "Yes, abandon the game", abandon_no: "No, play on",
    over_heading: "The game is over", player: "Player", score: "Score", rematch: "Rematch",
    download: "Download the record", on_table: "On the table", players: "Players", your_hand: "Your hand",
    account: "What happened", title_your_turn: "(your turn)",
    face_down: "{n} face down", one_card: "1 card", cards: "{n} cards", shown_below: "{cards}, shown below",
    bot: "bot", online: "online", offline: "offline", you: "(you)", to_play_mark: "— to play", out: "out",
    your_turn: "Your turn", your_turn_prompt: "Your turn: {prompt}", seat_n: "seat {n}",
    to_play: "{name} to play", waiting_for: "Waiting for {name}", your_zone: "Your {zone}", your_cards: "Your cards",
    over_announce: "The game is over. {text}", winner: "Winner: {names}", winners: "Winners: {names}",
    not_sent: "Not connected: your move was not sent. The page is reconnecting; try again in a moment.",
    reconnecting: "Not connected; the page is reconnecting. Try again in a moment.",
    asking_rematch: "Asking for a rematch…", rematch_ready: "The rematch is ready:", rematch_go: "go to the new table",
    refused: "The server refused that.",
    no_secret: "This address has no seat secret in it (the part after #). Open the whole link you were given.",
    stale: "The table moved on before your move arrived; this is where it is now.",
    not_your_turn: "It is not your turn.", bad_option: "That is not one of the moves offered.",
    over: "The game is over.", rate_limited: "Too many messages at once; wait a moment and try again.",
    bad_token: "This link does not open a seat at this table. Ask whoever made the table for a new link.",
    too_large: "A message was too large for the server.",
  },
  fr: {
    skip: "Aller à vos coups", table: "Table", watching: "Spectateur", help: "Aide",
    connecting: "Connexion…", connected: "Connecté", lost: "Connexion perdue ; nouvel essai dans {s} s",
    not_connected: "Non connecté",
    hint: "Conseil", rules: "Règles", close: "Fermer", abandon: "Abandonner",
    abandon_question: "Abandonner cette partie ? Elle prend fin pour tous les joueurs, sans retour possible.",
    abandon_yes: "Oui, abandonner la partie", abandon_no: "Non, continuer",
    over_heading: "La partie est finie", player: "Joueur", score: "Score", rematch: "Revanche",
    download: "Télécharger l'enregistrement", on_table: "Sur la table", players: "Joueurs", your_hand: "Votre main",
    account: "Ce qui s'est passé", title_your_turn: "(à vous)",
    face_down: "{n} face cachée", one_card: "1 carte", cards: "{n} cartes", shown_below: "{cards}, montrées plus bas",
    bot: "robot", online: "en ligne", offline: "absent", you: "(vous)", to_play_mark: "— à jouer", out: "éliminé",
    your_turn: "À vous", your_turn_prompt: "À vous : {prompt}", seat_n: "place {n}",
    to_play: "{name} joue", waiting_for: "On attend {name}", your_zone: "Votre {zone}", your_cards: "Vos cartes",
    over_announce: "La partie est finie. {text}", winner: "Gagnant : {names}", winners: "Gagnants : {names}",
    not_sent: "Non connecté : votre coup n'a pas été envoyé. La page se reconnecte ; réessayez dans un instant.",
    reconnecting: "Non connecté ; la page se reconnecte. Réessayez dans un instant.",
    asking_rematch: "Demande de revanche…", rematch_ready: "La revanche est prête :", rematch_go: "aller à la nouvelle table",
    refused: "Le serveur a refusé.",
    no_secret: "Cette adresse ne contient pas le secret de la place (la partie après #). Ouvrez le lien entier que vous avez reçu.",
    stale: "La table a avancé avant l'arrivée de votre coup ; voici où elle en est.",
    not_your_turn: "Ce n'est pas à vous.", bad_option: "Ce n'est pas l'un des coups proposés.",
    over: "La partie est finie.", rate_limited: "Trop de messages à la fois ; attendez un instant et réessayez.",
    bad_token: "Ce lien n'ouvre aucune place à cette table. Demandez un nouveau lien à qui a créé la table.",
    too_large: "Un message était trop grand pour le serveur.",
  },
  no: {
    skip: "Gå til trekkene dine", table: "Bord", watching: "Tilskuer", help: "Hjelp",
    connecting: "Kobler til…", connected: "Tilkoblet", lost: "Forbindelsen brutt; prøver igjen om {s} s",
    not_connected: "Ikke tilkoblet",
    hint: "Hint", rules: "Regler", close: "Lukk", abandon: "Avbryt spillet",
    abandon_question: "Avbryte dette spillet? Det slutter for alle spillerne, og kan ikke angres.",
    abandon_yes: "Ja, avbryt spillet", abandon_no: "Nei, spill videre",
    over_heading: "Spillet er slutt", player: "Spiller", score: "Poeng", rematch: "Revansj",
    download: "Last ned opptaket", on_table: "På bordet", players: "Spillere", your_hand: "Hånden din",
    account: "Hva som har skjedd", title_your_turn: "(din tur)",
    face_down: "{n} med bildesiden ned", one_card: "1 kort", cards: "{n} kort", shown_below: "{cards}, vist nedenfor",
    bot: "robot", online: "til stede", offline: "borte", you: "(deg)", to_play_mark: "— sin tur", out: "ute",
    your_turn: "Din tur", your_turn_prompt: "Din tur: {prompt}", seat_n: "plass {n}",
    to_play: "{name} sin tur", waiting_for: "Venter på {name}", your_zone: "Din {zone}", your_cards: "Kortene dine",
    over_announce: "Spillet er slutt. {text}", winner: "Vinner: {names}", winners: "Vinnere: {names}",
    not_sent: "Ikke tilkoblet: trekket ditt ble ikke sendt. Siden kobler til igjen; prøv igjen om et øyeblikk.",
    reconnecting: "Ikke tilkoblet; siden kobler til igjen. Prøv igjen om et øyeblikk.",
    asking_rematch: "Ber om revansj…", rematch_ready: "Revansjen er klar:", rematch_go: "gå til det nye bordet",
    refused: "Tjeneren avviste det.",
    no_secret: "Denne adressen har ikke plassens hemmelighet (delen etter #). Åpne hele lenken du fikk.",
    stale: "Bordet gikk videre før trekket ditt kom fram; slik står det nå.",
    not_your_turn: "Det er ikke din tur.", bad_option: "Det er ikke ett av trekkene som tilbys.",
    over: "Spillet er slutt.", rate_limited: "For mange meldinger på en gang; vent litt og prøv igjen.",
    bad_token: "Denne lenken åpner ingen plass ved dette bordet. Be den som laget bordet om en ny lenke.",
    too_large: "En melding var for stor for tjeneren.",
  },
  da: {
    skip: "Gå til dine træk", table: "Bord", watching: "Tilskuer", help: "Hjælp",
    connecting: "Forbinder…", connected: "Forbundet", lost: "Forbindelsen er tabt; prøver igen om {s} s",
    not_connected: "Ikke forbundet",
    hint: "Hint", rules: "Regler", close: "Luk", abandon: "Opgiv spillet",
    abandon_question: "Opgive dette spil? Det slutter for alle spillere og kan ikke fortrydes.",
    abandon_yes: "Ja, opgiv spillet", abandon_no: "Nej, spil videre",
    over_heading: "Spillet er slut", player: "Spiller", score: "Point", rematch: "Revanche",
    download: "Hent optagelsen", on_table: "På bordet", players: "Spillere", your_hand: "Din hånd",
    account: "Hvad der er sket", title_your_turn: "(din tur)",
    face_down: "{n} med bagsiden op", one_card: "1 kort", cards: "{n} kort", shown_below: "{cards}, vist nedenfor",
    bot: "robot", online: "til stede", offline: "væk", you: "(dig)", to_play_mark: "— i tur", out: "ude",
    your_turn: "Din tur", your_turn_prompt: "Din tur: {prompt}", seat_n: "plads {n}",
    to_play: "{name} er i tur", waiting_for: "Venter på {name}", your_zone: "Din {zone}", your_cards: "Dine kort",
    over_announce: "Spillet er slut. {text}", winner: "Vinder: {names}", winners: "Vindere: {names}",
    not_sent: "Ikke forbundet: dit træk blev ikke sendt. Siden forbinder igen; prøv igen om et øjeblik.",
    reconnecting: "Ikke forbundet; siden forbinder igen. Prøv igen om et øjeblik.",
    asking_rematch: "Beder om revanche…", rematch_ready: "Revanchen er klar:", rematch_go: "gå til det nye bord",
    refused: "Serveren afviste det.",
    no_secret: "Denne adresse har ikke pladsens hemmelighed (delen efter #). Åbn hele det link, du fik.",
    stale: "Bordet gik videre, før dit træk kom frem; sådan står det nu.",
    not_your_turn: "Det er ikke din tur.", bad_option: "Det er ikke et af de tilbudte træk.",
    over: "Spillet er slut.", rate_limited: "For mange beskeder på én gang; vent lidt og prøv igen.",
    bad_token: "Dette link åbner ingen plads ved dette bord. Bed den, der lavede bordet, om et nyt link.",
    too_large: "En besked var for stor til serveren.",
  },
  el: {
    skip: "Μετάβαση στις κινήσεις σας", table: "Τραπέζι", watching: "Θεατής", help: "Βοήθεια",
    connecting: "Σύνδεση…", connected: "Συνδεδεμένο", lost: "Η σύνδεση χάθηκε· νέα προσπάθεια σε {s} δ",
    not_connected: "Χωρίς σύνδεση",
    hint: "Υπόδειξη", rules: "Κανόνες", close: "Κλείσιμο", abandon: "Εγκατάλειψη",
    abandon_question: "Εγκατάλειψη του παιχνιδιού; Τελειώνει για όλους τους παίκτες και δεν αναιρείται.",
    abandon_yes: "Ναι, εγκατάλειψη του παιχνιδιού", abandon_no: "Όχι, συνεχίζουμε",
    over_heading: "Το παιχνίδι τελείωσε", player: "Παίκτης", score: "Πόντοι", rematch: "Ρεβάνς",
    download: "Λήψη της καταγραφής", on_table: "Στο τραπέζι", players: "Παίκτες", your_hand: "Το χέρι σας",
    account: "Τι έγινε", title_your_turn: "(σειρά σας)",
    face_down: "{n} κλειστά", one_card: "1 φύλλο", cards: "{n} φύλλα", shown_below: "{cards}, φαίνονται παρακάτω",
    bot: "ρομπότ", online: "συνδεδεμένος", offline: "εκτός", you: "(εσείς)", to_play_mark: "— παίζει", out: "εκτός παιχνιδιού",
    your_turn: "Σειρά σας", your_turn_prompt: "Σειρά σας: {prompt}", seat_n: "θέση {n}",
    to_play: "Παίζει: {name}", waiting_for: "Αναμονή για: {name}", your_zone: "{zone} σας", your_cards: "Τα φύλλα σας",
    over_announce: "Το παιχνίδι τελείωσε. {text}", winner: "Νικητής: {names}", winners: "Νικητές: {names}",
    not_sent: "Χωρίς σύνδεση: η κίνησή σας δεν στάλθηκε. Η σελίδα συνδέεται ξανά· δοκιμάστε σε λίγο.",
    reconnecting: "Χωρίς σύνδεση· η σελίδα συνδέεται ξανά. Δοκιμάστε σε λίγο.",
    asking_rematch: "Ζητείται ρεβάνς…", rematch_ready: "Η ρεβάνς είναι έτοιμη:", rematch_go: "στο νέο τραπέζι",
    refused: "Ο διακομιστής το αρνήθηκε.",
    no_secret: "Αυτή η διεύθυνση δεν έχει το μυστικό της θέσης (το μέρος μετά το #). Ανοίξτε ολόκληρο τον σύνδεσμο που λάβατε.",
    stale: "Το τραπέζι προχώρησε πριν φτάσει η κίνησή σας· εδώ βρίσκεται τώρα.",
    not_your_turn: "Δεν είναι η σειρά σας.", bad_option: "Αυτή δεν είναι μία από τις προσφερόμενες κινήσεις.",
    over: "Το παιχνίδι τελείωσε.", rate_limited: "Πάρα πολλά μηνύματα μαζί· περιμένετε λίγο και ξαναδοκιμάστε.",
    bad_token: "Αυτός ο σύνδεσμος δεν ανοίγει θέση σε αυτό το τραπέζι. Ζητήστε νέο σύνδεσμο από όποιον έφτιαξε το τραπέζι.",
    too_large: "Ένα μήνυμα ήταν πολύ μεγάλο για τον διακομιστή.",
  },
};

export const LANGUAGES = Object.keys(WORDS);

/** The words of a language (English where it has none), as a function: say("key", {n: 3}). */
export function wordsFor(lang) {
  const own = WORDS[typeof lang === "string" ? lang.toLowerCase().split("-")[0] : ""] || {};
  return (key, values = {}) => {
    const text = own[key] ?? WORDS.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  };
}

/** Every data-say and data-say-label element under `root`, in those words. */
export function sayAll(root, say) {
  for (const node of root.querySelectorAll("[data-say]")) node.textContent = say(node.dataset.say);
  for (const node of root.querySelectorAll("[data-say-label]")) node.setAttribute("aria-label", say(node.dataset.sayLabel));
}

/** "1 card" or "n cards", in those words. */
export function cardsIn(say, n) {
  return n === 1 ? say("one_card") : say("cards", { n });
}
