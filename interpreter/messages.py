"""The few texts the program itself shows at the terminal, in each language a ruleset may use.

Rulesets carry their own texts (logs, labels, prompts, card names); these are the
interpreter's: the heading, the prompt's help, the result line.  A language that is
missing here falls back to English.
"""
from __future__ import annotations

CATALOG = {
    "en": {
        "many": "{n} options: type the cards of one (as in '{example}'), a word of it or its number; 'list' shows them all",
        "ambiguous": "'{answer}' fits {n} options: type more of its name, or its number",
        "card": "{n} card",
        "round": "round", "yes": "yes", "no": "no", "round_over": "end of {round}", "revealed": "revealed", "player_col": "player",
        "out": "{name} is out of the game", "seed": "seed", "player": "Player {seat}", "you": "you", "bot": "bot", "house_rules": "house rules",
        "recorded": "this game is recorded in {path}", "resuming": "resuming after {n} decisions",
        "to_you": "(to you)", "to_player": "(to {name})", "your_turn": "-- your turn, {name} --",
        "your_zone": "your {zone}", "their_zone": "{name}'s {zone}", "cards": "{n} cards",
        "face_down": "(+{n} face down)",
        "draw": "Result: a draw.", "wins": "Result: {name} wins.", "share": "Result: {names} share the win.",
        "scores": "Scores", "seed_decisions": "(seed {seed}, {n} decisions)",
        "please": "Please type a number from 1 to {n} (or part of an option's name; ? for help).",
        "help": "A number picks the numbered move; a card is named by its id or as shown (8s or 8♠), a move by a word of it. "
                "A number that could also mean a card or another move is asked again (#3 is always move 3). "
                "'view' shows the table again, 'hint' asks the planning bot for a suggestion.",
        "hint": "hint: {label}",
        "rules_more": "Type 'rules' for the whole rules of the game.",
        "forced": "(your only legal move: {label})",
        "not_allowed": "'{label}' is not allowed now",
        "rule_cards": "1-{n}, or a card such as '{example}'; ? for help",
        "rule_words": "1-{n}, or a word of a move; ? for help",
        "could_mean": "'{answer}' could mean move {answer} or a move it names (below): type #{answer} for move {answer}, or more of the other's name",
    },
    "fr": {
        "many": "{n} choix : tapez les cartes de l'un d'eux (comme dans « {example} »), un mot de son nom ou son numéro ; « list » les montre tous",
        "ambiguous": "« {answer} » convient à {n} choix : tapez plus de son nom, ou son numéro",
        "card": "{n} carte",
        "round": "manche", "yes": "oui", "no": "non", "round_over": "fin de la {round}", "revealed": "montré", "player_col": "joueur",
        "out": "{name} est éliminé", "seed": "graine", "player": "Joueur {seat}", "you": "vous", "bot": "robot", "house_rules": "règles locales",
        "recorded": "cette partie est enregistrée dans {path}", "resuming": "reprise après {n} décisions",
        "to_you": "(pour vous)", "to_player": "(pour {name})", "your_turn": "-- à vous, {name} --",
        "your_zone": "votre {zone}", "their_zone": "{zone} de {name}", "cards": "{n} cartes",
        "face_down": "(+{n} face cachée)",
        "draw": "Résultat : partie nulle.", "wins": "Résultat : {name} gagne.",
        "share": "Résultat : {names} partagent la victoire.", "scores": "Scores",
        "seed_decisions": "(graine {seed}, {n} décisions)",
        "please": "Tapez un nombre de 1 à {n} (ou une partie du nom d'un choix ; ? pour l'aide).",
        "help": "Un nombre choisit le coup de ce numéro ; une carte se nomme par son identifiant ou comme elle est montrée (8s ou 8♠), "
                "un coup par un mot de son nom. Un nombre qui peut aussi désigner une carte ou un autre coup est redemandé "
                "(#3 est toujours le coup 3). 'view' montre de nouveau la table, 'hint' demande un conseil au robot.",
        "hint": "conseil : {label}",
        "rules_more": "Tapez 'rules' pour lire toutes les règles du jeu.",
        "forced": "(votre seul coup possible : {label})",
        "not_allowed": "« {label} » n'est pas permis maintenant",
        "rule_cards": "1-{n}, ou une carte comme « {example} » ; ? pour l'aide",
        "rule_words": "1-{n}, ou un mot d'un coup ; ? pour l'aide",
        "could_mean": "« {answer} » peut désigner le coup {answer} ou un coup qu'il nomme (ci-dessous) : tapez #{answer} pour le coup {answer}, ou plus du nom de l'autre",
    },
    "no": {
        "many": "{n} valg: skriv kortene i ett av dem (som i «{example}»), et ord av det eller nummeret; «list» viser alle",
        "ambiguous": "«{answer}» passer til {n} valg: skriv mer av navnet, eller nummeret",
        "card": "{n} kort",
        "round": "runde", "yes": "ja", "no": "nei", "round_over": "slutt på {round}", "revealed": "vist", "player_col": "spiller",
        "out": "{name} er ute av spillet", "seed": "frø", "player": "Spiller {seat}", "you": "deg", "bot": "robot", "house_rules": "husregler",
        "recorded": "dette spillet lagres i {path}", "resuming": "fortsetter etter {n} valg",
        "to_you": "(til deg)", "to_player": "(til {name})", "your_turn": "-- din tur, {name} --",
        "your_zone": "din {zone}", "their_zone": "{name} sin {zone}", "cards": "{n} kort",
        "face_down": "(+{n} med baksiden opp)",
        "draw": "Resultat: uavgjort.", "wins": "Resultat: {name} vinner.",
        "share": "Resultat: {names} deler seieren.", "scores": "Poeng",
        "seed_decisions": "(frø {seed}, {n} valg)",
        "please": "Skriv et tall fra 1 til {n} (eller en del av navnet på et valg; ? for hjelp).",
        "help": "Et tall velger trekket med det nummeret; et kort nevnes ved id-en eller slik det vises (8s eller 8♠), et trekk "
                "ved et ord i det. Et tall som også kan bety et kort eller et annet trekk, blir spurt om igjen (#3 er alltid "
                "trekk 3). 'view' viser bordet igjen, 'hint' ber roboten om et råd.",
        "hint": "råd: {label}",
        "rules_more": "Skriv 'rules' for alle reglene i spillet.",
        "forced": "(ditt eneste lovlige trekk: {label})",
        "not_allowed": "«{label}» er ikke lov nå",
        "rule_cards": "1-{n}, eller et kort som «{example}»; ? for hjelp",
        "rule_words": "1-{n}, eller et ord i et trekk; ? for hjelp",
        "could_mean": "«{answer}» kan bety trekk {answer} eller et trekk det nevner (under): skriv #{answer} for trekk {answer}, eller mer av navnet på det andre",
    },
    "da": {
        "many": "{n} valg: skriv kortene i et af dem (som i »{example}«), et ord af det eller dets nummer; »list« viser dem alle",
        "ambiguous": "»{answer}« passer til {n} valg: skriv mere af navnet, eller nummeret",
        "card": "{n} kort",
        "round": "runde", "yes": "ja", "no": "nej", "round_over": "slut på {round}", "revealed": "vist", "player_col": "spiller",
        "out": "{name} er ude af spillet", "seed": "frø", "player": "Spiller {seat}", "you": "dig", "bot": "robot", "house_rules": "husregler",
        "recorded": "spillet gemmes i {path}", "resuming": "fortsætter efter {n} valg",
        "to_you": "(til dig)", "to_player": "(til {name})", "your_turn": "-- din tur, {name} --",
        "your_zone": "din {zone}", "their_zone": "{name}s {zone}", "cards": "{n} kort",
        "face_down": "(+{n} med bagsiden op)",
        "draw": "Resultat: uafgjort.", "wins": "Resultat: {name} vinder.",
        "share": "Resultat: {names} deler sejren.", "scores": "Point",
        "seed_decisions": "(frø {seed}, {n} valg)",
        "please": "Skriv et tal fra 1 til {n} (eller en del af navnet på et valg; ? for hjælp).",
        "help": "Et tal vælger trækket med det nummer; et kort nævnes ved sit id eller som det vises (8s eller 8♠), et træk "
                "ved et ord i det. Et tal, der også kan betyde et kort eller et andet træk, bliver spurgt om igen (#3 er "
                "altid træk 3). 'view' viser bordet igen, 'hint' beder robotten om et råd.",
        "hint": "råd: {label}",
        "rules_more": "Skriv 'rules' for alle spillets regler.",
        "forced": "(dit eneste lovlige træk: {label})",
        "not_allowed": "»{label}« er ikke tilladt nu",
        "rule_cards": "1-{n}, eller et kort som »{example}«; ? for hjælp",
        "rule_words": "1-{n}, eller et ord i et træk; ? for hjælp",
        "could_mean": "»{answer}« kan betyde træk {answer} eller et træk, det nævner (nedenfor): skriv #{answer} for træk {answer}, eller mere af navnet på det andet",
    },
    "el": {
        "many": "{n} επιλογές: γράψτε τα φύλλα μίας (όπως στο «{example}»), μια λέξη της ή τον αριθμό της· το «list» τις δείχνει όλες",
        "ambiguous": "το «{answer}» ταιριάζει σε {n} επιλογές: γράψτε περισσότερο από το όνομα ή τον αριθμό",
        "card": "{n} χαρτί",
        "round": "γύρος", "yes": "ναι", "no": "όχι", "round_over": "τέλος: {round}", "revealed": "αποκαλύφθηκαν", "player_col": "παίκτης",
        "out": "ο/η {name} αποκλείεται", "seed": "σπόρος", "player": "Παίκτης {seat}", "you": "εσείς", "bot": "ρομπότ", "house_rules": "κανόνες του σπιτιού",
        "recorded": "η παρτίδα καταγράφεται στο {path}", "resuming": "συνέχεια μετά από {n} αποφάσεις",
        "to_you": "(για εσάς)", "to_player": "(για {name})", "your_turn": "-- η σειρά σας, {name} --",
        "your_zone": "{zone} σας", "their_zone": "{zone} ({name})", "cards": "{n} κάρτες",
        "face_down": "(+{n} κλειστές)",
        "draw": "Αποτέλεσμα: ισοπαλία.", "wins": "Αποτέλεσμα: κερδίζει ο/η {name}.",
        "share": "Αποτέλεσμα: {names} μοιράζονται τη νίκη.", "scores": "Πόντοι",
        "seed_decisions": "(σπόρος {seed}, {n} αποφάσεις)",
        "please": "Πληκτρολογήστε έναν αριθμό από 1 έως {n} (ή μέρος του ονόματος μιας επιλογής· ? για βοήθεια).",
        "help": "Ένας αριθμός επιλέγει την κίνηση με αυτόν τον αριθμό· ένα φύλλο γράφεται με το αναγνωριστικό του ή όπως "
                "φαίνεται (8s ή 8♠), μια κίνηση με μια λέξη της. Ένας αριθμός που μπορεί να σημαίνει και φύλλο ή άλλη κίνηση "
                "ζητείται ξανά (το #3 είναι πάντα η κίνηση 3). 'view' δείχνει ξανά το τραπέζι, 'hint' ζητά συμβουλή από το ρομπότ.",
        "hint": "συμβουλή: {label}",
        "rules_more": "Πληκτρολογήστε 'rules' για όλους τους κανόνες του παιχνιδιού.",
        "forced": "(η μόνη επιτρεπτή κίνησή σας: {label})",
        "not_allowed": "«{label}» δεν επιτρέπεται τώρα",
        "rule_cards": "1-{n}, ή ένα φύλλο όπως «{example}»· ? για βοήθεια",
        "rule_words": "1-{n}, ή μια λέξη μιας κίνησης· ? για βοήθεια",
        "could_mean": "το «{answer}» μπορεί να σημαίνει την κίνηση {answer} ή μια κίνηση που ονομάζει (παρακάτω): γράψτε #{answer} για την κίνηση {answer}, ή περισσότερο από το όνομα της άλλης",
    },
}


def msg(lang: str, key: str, **values) -> str:
    """The text `key` in `lang` (English where that language lacks it), filled in."""
    table = CATALOG.get(lang) or CATALOG["en"]
    return table.get(key, CATALOG["en"][key]).format(**values)
