"""The few texts the program itself shows at the terminal, in each language a ruleset may use.

Rulesets carry their own texts (logs, labels, prompts, card names); these are the
interpreter's: the heading, the prompt's help, the result line.  A language that is
missing here falls back to English.
"""
from __future__ import annotations

CATALOG = {
    "en": {
        "more": "... ({n} more)",
        "players": "Players: {players}", "players_range": "{lo} to {hi} (default {default})",
        "how_to_play": "How to play", "how_to_win": "How to win", "the_rules": "The rules",
        "conventions": "Table conventions in force (they settle what the rules leave open, and hold where the rules say otherwise; 'interpret options {name}' lists every choice):",
        "house_rules_in_force": "House rules in force:",
        "cards_of_deck": "Cards ({n}): {cards}", "zones": "Zones",
        "piles_made": "piles made during play", "one_per_player": "one per player", "vis_hidden": "nobody sees it", "vis_owner": "each player sees their own",
        "vis_public": "everyone sees it", "vis_top": "everyone sees the top card",
        "card_data": "What the cards' data says:",
        "no_prose": "(this ruleset has no rules in prose: the lines above are what its data says)",
        "notes": "Notes for designers (where these rules come from, how they were read): {path}",
        "cmd_view": "view", "cmd_hint": "hint", "cmd_rules": "rules", "cmd_list": "list", "cmd_help": "help",
        "interrupted": "game interrupted", "input_ended": "input ended", "ctrl_c": "Ctrl-C or a signal",
        "saved": "{n} decisions saved. Continue with: interpret resume {path}",
        "many_words": "{n} options: type a word of one (as in '{example}') or its number; 'list' shows them all",
        "many": "{n} options: type the cards of one (as in '{example}'), a word of it or its number; 'list' shows them all",
        "ambiguous": "'{answer}' fits {n} options: type more of its name, or its number",
        "card": "{n} card",
        "round": "round", "yes": "yes", "no": "no", "round_over": "end of {round}", "revealed": "revealed", "player_col": "player",
        "out": "{name} is out of the game", "seed": "seed", "player": "Player {seat}", "you": "you", "bot": "bot", "house_rules": "house rules",
        "recorded": "this game is recorded in {path}", "resuming": "resuming after {n} decisions",
        "to_you": "(to you)", "to_player": "(to {name})", "your_turn": "-- your turn, {name} --",
        "your_zone": "your {zone}", "their_zone": "{name}'s {zone}", "cards": "{n} cards",
        "face_down": "(+{n} face down)",
        "abandoned": "{name} abandoned the game before its end.", "team_wins": "Result: {team} win.", "draw": "Result: a draw.", "wins": "Result: {name} wins.", "share": "Result: {names} share the win.",
        "scores": "Scores", "seed_decisions": "(seed {seed}, {n} decisions)",
        "please": "Please type a number from 1 to {n} (or part of an option's name; ? for help).",
        "help": "A number picks the move of that number; a card is typed with its suit, by its id or as shown (8s or 8♠); "
                "a word picks the move it names. 'view' shows the table again, 'hint' asks the planning bot for a "
                "suggestion, 'rules' shows the whole rules.",
        "hint": "hint: {label}",
        "rules_more": "Type 'rules' for the whole rules of the game.",
        "forced": "(your only legal move: {label})",
        "not_allowed": "'{label}' is not allowed now",
        "rule_cards": "1-{n}, or a card such as '{example}'; ? for help",
        "rule_words": "1-{n}, or a word of a move; ? for help",
        "no_move": "There is no move {answer} (the moves are 1 to {n}); a card is typed with its suit. The moves with that rank:",
    },
    "fr": {
        "more": "... ({n} de plus)",
        "players": "Joueurs : {players}", "players_range": "de {lo} à {hi} ({default} par défaut)",
        "how_to_play": "Comment jouer", "how_to_win": "Comment gagner", "the_rules": "Les règles",
        "conventions": "Conventions de table en vigueur (elles tranchent ce que les règles laissent ouvert, et priment là où les règles disent autre chose ; « interpret options {name} » montre tous les choix) :",
        "house_rules_in_force": "Règles locales en vigueur :",
        "cards_of_deck": "Cartes ({n}) : {cards}", "zones": "Zones",
        "piles_made": "des tas faits en jouant", "one_per_player": "une par joueur", "vis_hidden": "personne ne la voit", "vis_owner": "chaque joueur voit la sienne",
        "vis_public": "tout le monde la voit", "vis_top": "tout le monde voit la carte du dessus",
        "card_data": "Ce que disent les données des cartes :",
        "no_prose": "(ces règles n'ont pas de texte : les lignes ci-dessus sont ce que disent leurs données)",
        "notes": "Notes pour les concepteurs (d'où viennent ces règles, comment elles ont été lues) : {path}",
        "cmd_view": "voir", "cmd_hint": "conseil", "cmd_rules": "règles", "cmd_list": "liste", "cmd_help": "aide",
        "interrupted": "partie interrompue", "input_ended": "fin de l'entrée", "ctrl_c": "Ctrl-C ou un signal",
        "saved": "{n} décisions enregistrées. Pour reprendre : interpret resume {path}",
        "many_words": "{n} choix : tapez un mot de son nom (comme dans « {example} ») ou son numéro ; « liste » les montre tous",
        "many": "{n} choix : tapez les cartes de l'un d'eux (comme dans « {example} »), un mot de son nom ou son numéro ; « liste » les montre tous",
        "ambiguous": "« {answer} » convient à {n} choix : tapez plus de son nom, ou son numéro",
        "card": "{n} carte",
        "round": "manche", "yes": "oui", "no": "non", "round_over": "fin de la {round}", "revealed": "montré", "player_col": "joueur",
        "out": "{name} est éliminé", "seed": "graine", "player": "Joueur {seat}", "you": "vous", "bot": "robot", "house_rules": "règles locales",
        "recorded": "cette partie est enregistrée dans {path}", "resuming": "reprise après {n} décisions",
        "to_you": "(pour vous)", "to_player": "(pour {name})", "your_turn": "-- à vous, {name} --",
        "your_zone": "votre {zone}", "their_zone": "{zone} de {name}", "cards": "{n} cartes",
        "face_down": "(+{n} face cachée)",
        "abandoned": "{name} a abandonné la partie avant la fin.", "team_wins": "Résultat : {team} gagnent.", "draw": "Résultat : partie nulle.", "wins": "Résultat : {name} gagne.",
        "share": "Résultat : {names} partagent la victoire.", "scores": "Scores",
        "seed_decisions": "(graine {seed}, {n} décisions)",
        "please": "Tapez un nombre de 1 à {n} (ou une partie du nom d'un choix ; ? pour l'aide).",
        "help": "Un nombre choisit le coup de ce numéro ; une carte se tape avec sa couleur, par son identifiant ou comme "
                "elle est montrée (8s ou 8♠) ; un mot choisit le coup qu'il nomme. « voir » montre de nouveau la table, "
                "« conseil » demande un conseil au robot, « règles » montre toutes les règles.",
        "hint": "conseil : {label}",
        "rules_more": "Tapez « règles » pour lire toutes les règles du jeu.",
        "forced": "(votre seul coup possible : {label})",
        "not_allowed": "« {label} » n'est pas permis maintenant",
        "rule_cards": "1-{n}, ou une carte comme « {example} » ; ? pour l'aide",
        "rule_words": "1-{n}, ou un mot d'un coup ; ? pour l'aide",
        "no_move": "Il n'y a pas de coup {answer} (les coups vont de 1 à {n}) ; une carte se tape avec sa couleur. Les coups de cette valeur :",
    },
    "no": {
        "more": "... ({n} til)",
        "players": "Spillere: {players}", "players_range": "{lo} til {hi} (vanligvis {default})",
        "how_to_play": "Slik spiller du", "how_to_win": "Slik vinner du", "the_rules": "Reglene",
        "conventions": "Bordkonvensjoner som gjelder (de avgjør det reglene lar stå åpent, og gjelder der reglene sier noe annet; «interpret options {name}» viser alle valg):",
        "house_rules_in_force": "Husregler som gjelder:",
        "cards_of_deck": "Kort ({n}): {cards}", "zones": "Steder",
        "piles_made": "hauger som lages underveis", "one_per_player": "én per spiller", "vis_hidden": "ingen ser kortene", "vis_owner": "hver spiller ser sine egne kort",
        "vis_public": "alle ser kortene", "vis_top": "alle ser det øverste kortet",
        "card_data": "Dette sier kortenes data:",
        "no_prose": "(disse reglene har ingen tekst: linjene over er det dataene sier)",
        "notes": "Notater for spilldesignere (hvor reglene kommer fra, hvordan de er lest): {path}",
        "cmd_view": "vis", "cmd_hint": "råd", "cmd_rules": "regler", "cmd_list": "liste", "cmd_help": "hjelp",
        "interrupted": "spillet ble avbrutt", "input_ended": "inndata tok slutt", "ctrl_c": "Ctrl-C eller et signal",
        "saved": "{n} valg er lagret. Fortsett med: interpret resume {path}",
        "many_words": "{n} valg: skriv et ord av ett av dem (som i «{example}») eller nummeret; «liste» viser alle",
        "many": "{n} valg: skriv kortene i ett av dem (som i «{example}»), et ord av det eller nummeret; «liste» viser alle",
        "ambiguous": "«{answer}» passer til {n} valg: skriv mer av navnet, eller nummeret",
        "card": "{n} kort",
        "round": "runde", "yes": "ja", "no": "nei", "round_over": "slutt på {round}", "revealed": "vist", "player_col": "spiller",
        "out": "{name} er ute av spillet", "seed": "frø", "player": "Spiller {seat}", "you": "deg", "bot": "robot", "house_rules": "husregler",
        "recorded": "dette spillet lagres i {path}", "resuming": "fortsetter etter {n} valg",
        "to_you": "(til deg)", "to_player": "(til {name})", "your_turn": "-- din tur, {name} --",
        "your_zone": "din {zone}", "their_zone": "{name} sin {zone}", "cards": "{n} kort",
        "face_down": "(+{n} med baksiden opp)",
        "abandoned": "{name} avbrøt spillet før slutten.", "team_wins": "Resultat: {team} vinner.", "draw": "Resultat: uavgjort.", "wins": "Resultat: {name} vinner.",
        "share": "Resultat: {names} deler seieren.", "scores": "Poeng",
        "seed_decisions": "(frø {seed}, {n} valg)",
        "please": "Skriv et tall fra 1 til {n} (eller en del av navnet på et valg; ? for hjelp).",
        "help": "Et tall velger trekket med det nummeret; et kort skrives med fargen, ved id-en eller slik det vises "
                "(8s eller 8♠); et ord velger trekket det nevner. «vis» viser bordet igjen, «råd» ber roboten om et råd, "
                "«regler» viser alle reglene.",
        "hint": "råd: {label}",
        "rules_more": "Skriv «regler» for alle reglene i spillet.",
        "forced": "(ditt eneste lovlige trekk: {label})",
        "not_allowed": "«{label}» er ikke lov nå",
        "rule_cards": "1-{n}, eller et kort som «{example}»; ? for hjelp",
        "rule_words": "1-{n}, eller et ord i et trekk; ? for hjelp",
        "no_move": "Det finnes ikke noe trekk {answer} (trekkene er 1 til {n}); et kort skrives med fargen. Trekkene med den verdien:",
    },
    "da": {
        "more": "... ({n} mere)",
        "players": "Spillere: {players}", "players_range": "{lo} til {hi} (normalt {default})",
        "how_to_play": "Sådan spiller man", "how_to_win": "Sådan vinder man", "the_rules": "Reglerne",
        "conventions": "Bordkonventioner, der gælder (de afgør, hvad reglerne lader stå åbent, og gælder, hvor reglerne siger noget andet; »interpret options {name}« viser alle valg):",
        "house_rules_in_force": "Husregler, der gælder:",
        "cards_of_deck": "Kort ({n}): {cards}", "zones": "Steder",
        "piles_made": "bunker som lægges under spillet", "one_per_player": "én til hver spiller", "vis_hidden": "ingen ser kortene", "vis_owner": "hver spiller ser sine egne kort",
        "vis_public": "alle ser kortene", "vis_top": "alle ser det øverste kort",
        "card_data": "Det siger kortenes data:",
        "no_prose": "(disse regler har ingen tekst: linjerne ovenfor er, hvad dataene siger)",
        "notes": "Noter til spildesignere (hvor reglerne kommer fra, hvordan de er læst): {path}",
        "cmd_view": "vis", "cmd_hint": "råd", "cmd_rules": "regler", "cmd_list": "liste", "cmd_help": "hjælp",
        "interrupted": "spillet blev afbrudt", "input_ended": "input sluttede", "ctrl_c": "Ctrl-C eller et signal",
        "saved": "{n} valg er gemt. Fortsæt med: interpret resume {path}",
        "many_words": "{n} valg: skriv et ord af et af dem (som i »{example}«) eller dets nummer; »liste« viser dem alle",
        "many": "{n} valg: skriv kortene i et af dem (som i »{example}«), et ord af det eller dets nummer; »liste« viser dem alle",
        "ambiguous": "»{answer}« passer til {n} valg: skriv mere af navnet, eller nummeret",
        "card": "{n} kort",
        "round": "runde", "yes": "ja", "no": "nej", "round_over": "slut på {round}", "revealed": "vist", "player_col": "spiller",
        "out": "{name} er ude af spillet", "seed": "frø", "player": "Spiller {seat}", "you": "dig", "bot": "robot", "house_rules": "husregler",
        "recorded": "spillet gemmes i {path}", "resuming": "fortsætter efter {n} valg",
        "to_you": "(til dig)", "to_player": "(til {name})", "your_turn": "-- din tur, {name} --",
        "your_zone": "din {zone}", "their_zone": "{name}s {zone}", "cards": "{n} kort",
        "face_down": "(+{n} med bagsiden op)",
        "abandoned": "{name} opgav spillet før slutningen.", "team_wins": "Resultat: {team} vinder.", "draw": "Resultat: uafgjort.", "wins": "Resultat: {name} vinder.",
        "share": "Resultat: {names} deler sejren.", "scores": "Point",
        "seed_decisions": "(frø {seed}, {n} valg)",
        "please": "Skriv et tal fra 1 til {n} (eller en del af navnet på et valg; ? for hjælp).",
        "help": "Et tal vælger trækket med det nummer; et kort skrives med sin kulør, ved sit id eller som det vises "
                "(8s eller 8♠); et ord vælger det træk, det nævner. »vis« viser bordet igen, »råd« beder robotten om et "
                "råd, »regler« viser alle spillets regler.",
        "hint": "råd: {label}",
        "rules_more": "Skriv »regler« for alle spillets regler.",
        "forced": "(dit eneste lovlige træk: {label})",
        "not_allowed": "»{label}« er ikke tilladt nu",
        "rule_cards": "1-{n}, eller et kort som »{example}«; ? for hjælp",
        "rule_words": "1-{n}, eller et ord i et træk; ? for hjælp",
        "no_move": "Der er intet træk {answer} (trækkene er 1 til {n}); et kort skrives med sin kulør. Trækkene med den værdi:",
    },
    "el": {
        "more": "... (άλλες {n})",
        "players": "Παίκτες: {players}", "players_range": "{lo} έως {hi} (συνήθως {default})",
        "how_to_play": "Πώς παίζεται", "how_to_win": "Πώς κερδίζετε", "the_rules": "Οι κανόνες",
        "conventions": "Συμβάσεις του τραπεζιού σε ισχύ (κρίνουν ό,τι αφήνουν ανοιχτό οι κανόνες και υπερισχύουν όπου οι κανόνες λένε κάτι άλλο· το «interpret options {name}» δείχνει όλες τις επιλογές):",
        "house_rules_in_force": "Κανόνες του σπιτιού σε ισχύ:",
        "cards_of_deck": "Φύλλα ({n}): {cards}", "zones": "Θέσεις",
        "piles_made": "στοίβες που γίνονται στο παιχνίδι", "one_per_player": "μία για κάθε παίκτη", "vis_hidden": "δεν τη βλέπει κανείς", "vis_owner": "ο καθένας βλέπει τη δική του",
        "vis_public": "τη βλέπουν όλοι", "vis_top": "όλοι βλέπουν το πάνω φύλλο",
        "card_data": "Τι λένε τα δεδομένα των φύλλων:",
        "no_prose": "(αυτοί οι κανόνες δεν έχουν κείμενο: οι γραμμές πιο πάνω είναι ό,τι λένε τα δεδομένα τους)",
        "notes": "Σημειώσεις για σχεδιαστές (από πού προέρχονται οι κανόνες, πώς διαβάστηκαν): {path}",
        "cmd_view": "τραπέζι", "cmd_hint": "συμβουλή", "cmd_rules": "κανόνες", "cmd_list": "λίστα", "cmd_help": "βοήθεια",
        "interrupted": "η παρτίδα διακόπηκε", "input_ended": "τέλος εισόδου", "ctrl_c": "Ctrl-C ή σήμα",
        "saved": "αποθηκεύτηκαν {n} αποφάσεις. Συνεχίστε με: interpret resume {path}",
        "many_words": "{n} επιλογές: γράψτε μια λέξη μίας (όπως στο «{example}») ή τον αριθμό της· το «λίστα» τις δείχνει όλες",
        "many": "{n} επιλογές: γράψτε τα φύλλα μίας (όπως στο «{example}»), μια λέξη της ή τον αριθμό της· το «λίστα» τις δείχνει όλες",
        "ambiguous": "το «{answer}» ταιριάζει σε {n} επιλογές: γράψτε περισσότερο από το όνομα ή τον αριθμό",
        "card": "{n} χαρτί",
        "round": "γύρος", "yes": "ναι", "no": "όχι", "round_over": "τέλος: {round}", "revealed": "αποκαλύφθηκαν", "player_col": "παίκτης",
        "out": "ο/η {name} αποκλείεται", "seed": "σπόρος", "player": "Παίκτης {seat}", "you": "εσείς", "bot": "ρομπότ", "house_rules": "κανόνες του σπιτιού",
        "recorded": "η παρτίδα καταγράφεται στο {path}", "resuming": "συνέχεια μετά από {n} αποφάσεις",
        "to_you": "(για εσάς)", "to_player": "(για {name})", "your_turn": "-- η σειρά σας, {name} --",
        "your_zone": "{zone} σας", "their_zone": "{zone} ({name})", "cards": "{n} κάρτες",
        "face_down": "(+{n} κλειστές)",
        "abandoned": "Ο/Η {name} εγκατέλειψε το παιχνίδι πριν από το τέλος του.", "team_wins": "Αποτέλεσμα: κερδίζουν οι {team}.", "draw": "Αποτέλεσμα: ισοπαλία.", "wins": "Αποτέλεσμα: κερδίζει ο/η {name}.",
        "share": "Αποτέλεσμα: {names} μοιράζονται τη νίκη.", "scores": "Πόντοι",
        "seed_decisions": "(σπόρος {seed}, {n} αποφάσεις)",
        "please": "Πληκτρολογήστε έναν αριθμό από 1 έως {n} (ή μέρος του ονόματος μιας επιλογής· ? για βοήθεια).",
        "help": "Ένας αριθμός επιλέγει την κίνηση με αυτόν τον αριθμό· ένα φύλλο γράφεται με το χρώμα του, με το "
                "αναγνωριστικό του ή όπως φαίνεται (8s ή 8♠)· μια λέξη επιλέγει την κίνηση που ονομάζει. «τραπέζι» "
                "δείχνει ξανά το τραπέζι, «συμβουλή» ζητά συμβουλή από το ρομπότ, «κανόνες» δείχνει όλους τους κανόνες.",
        "hint": "συμβουλή: {label}",
        "rules_more": "Πληκτρολογήστε «κανόνες» για όλους τους κανόνες του παιχνιδιού.",
        "forced": "(η μόνη επιτρεπτή κίνησή σας: {label})",
        "not_allowed": "«{label}» δεν επιτρέπεται τώρα",
        "rule_cards": "1-{n}, ή ένα φύλλο όπως «{example}»· ? για βοήθεια",
        "rule_words": "1-{n}, ή μια λέξη μιας κίνησης· ? για βοήθεια",
        "no_move": "Δεν υπάρχει κίνηση {answer} (οι κινήσεις είναι 1 έως {n})· ένα φύλλο γράφεται με το χρώμα του. Οι κινήσεις με αυτή την αξία:",
    },
}


COMMANDS = ("view", "hint", "rules", "list", "help")


def command(lang: str, answer: str) -> str | None:
    """The command a person typed at the table ('view', 'hint', 'rules', 'list', 'help' or
    '?'), in the table's language or in English; None for anything else (a move)."""
    word = answer.strip().lower()
    if word == "?":
        return "help"
    for name in COMMANDS:
        if word in (name, msg(lang, "cmd_" + name).lower()):
            return name
    return None


def msg(lang: str, key: str, **values) -> str:
    """The text `key` in `lang` (English where that language lacks it), filled in."""
    table = CATALOG.get(lang) or CATALOG["en"]
    return table.get(key, CATALOG["en"][key]).format(**values)
