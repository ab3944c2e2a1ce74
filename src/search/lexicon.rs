//! A small smart-home and software lexicon in English, Dutch and German.
//!
//! Each row maps single words (never phrases) to an English expansion: the
//! words a tool catalog is most likely to use for the same thing. An
//! expansion is one or more groups separated by spaces (`"turn on"`: the
//! query gets both words), each group a list of alternatives separated by
//! `|` (`"curtain|blind|shutter"`: a tool matches through its best one),
//! each optionally weighted (`"start|on*0.7"`). A leading `=` means the
//! expansion replaces the word's own term (`living` is the room, not a
//! form of `live`).
//!
//! Words are folded (lower case, no diacritics). A word is found by its
//! surface form or by its Snowball stem in its own language, so plurals
//! and verb forms need not be listed (`lampen`, `Lampen` find `lamp`).
//!
//! Dutch and German verbs with a separable particle (`zet ... aan`,
//! `schalte ... aus`, `aanzetten`, `ausgeschaltet`) are read by
//! [`separable`]: a particle, a verb root and the expansion of the pair.

use std::sync::OnceLock;

use super::act::{act_of_category, verb_category, CHANGE, READ};
use super::analyze::{letter_mask, Lang, Stemmers, Strings, STOPWORDS};

/// The lexicon, one row a line: `expansion = English words / Dutch words /
/// German words / French words` (`-` or nothing for none); `#` starts a
/// comment. An expansion followed by `[quantity]` is a thing in the home
/// and what a number said of it sets (`[position]`; `[]` for none). Text
/// rather than a table of string slices: in the wasm module it is a third
/// of the size.
const ROWS: &str = r"
# lights
light|lamp [brightness] = lamp lamps bulb bulbs lighting luminaire / licht lichten lichtje lamp lampje lampen verlichting peer peertje spotje / licht lichter lampe leuchte beleuchtung gluhbirne birne strahler / lumiere lumieres lampe lampes eclairage ampoule ampoules plafonnier lampadaire
brightness|dim = brightness bright brighter dim dimmer dimming dimmed intensity dark darker / helderheid helder feller felheid intensiteit dimmen dimniveau dim gedimd donker donkerder / helligkeit hell heller intensitat dimmen gedimmt dunkel dunkler / luminosite lumineux tamiser tamise intensite
color|colour = color colour colors red green blue yellow orange purple pink white cyan magenta violet turquoise / kleur kleuren rood groen blauw geel oranje paars roze wit turkoois / farbe farben rot grun blau gelb lila rosa weiss turkis / couleur couleurs rouge vert verte bleu bleue jaune violette rose blanc blanche
# switching
on = - / aan / -
# lights burning are on (exact words: `brand` is English)
=on = - / brandt branden / brennt brennen / -
off = - / uit / -
# Homey's capability of switching
on off = onoff / - / -
turn|switch = switch / schakel schakelen / schalte schalten schalt schaltet
toggle = toggle flip / omschakelen wissel wisselen / umschalten wechseln / basculer bascule inverser
activate|enable|turn on = activate enable engage illuminate / activeer activeren inschakelen / aktiviere aktivieren einschalten / allume allumer allumez allumes allumee allumees active activer
deactivate|disable|turn off = deactivate disable disengage / deactiveer deactiveren uitschakelen / deaktiviere deaktivieren ausschalten / eteins eteindre eteignez eteint eteinte eteintes desactive desactiver coupe couper
# covers, doors, locks; a lock is locked by switching it on or closing it,
# unlocked by switching it off or opening it (`HassTurnOn` locks a lock)
open = open opened opening / openen open opendoen / offne offnen offnet oeffnen aufmachen offen geoffnet / ouvre ouvrir ouvrez ouvert ouverte ouvertes
close|shut = close shut closed / sluit sluiten dicht dichtdoen / schliesse schliessen schliess zumachen geschlossen / ferme fermer fermez fermee fermees
lock|close*0.5|on*0.5 [] = lock locked / slot sloten vergrendel vergrendelen vergrendeld afsluiten / schloss verriegeln verriegle verriegelt verschlossen abschliessen zuschliessen zusperren / verrouille verrouiller verrouillee
unlock|open*0.5|off*0.5 = unlock unlocked / ontgrendel ontgrendelen / entriegeln entriegle aufschliessen aufsperren / deverrouille deverrouiller
curtain|blind|shade|shutter|cover|awning [position] = curtain curtains blind blinds shade shades shutter shutters drape drapes awning cover covers louvre louver / gordijn gordijnen rolluik rolluiken jaloezie jaloezieen zonwering zonnescherm screen screens vitrage luifel markies lamellen / vorhang vorhange rollo rollos rollladen rolladen rollladen jalousie jalousien markise abdeckung abdeckungen raffstore gardine gardinen beschattung beschattungen store / volet volets store stores rideau rideaux persienne persiennes
door [] = door doors frontdoor backdoor / deur deuren voordeur achterdeur / tur turen haustur
# (exact words: `port` is English)
=door [] = - / - / - / porte portes
gate [] = gate / poort hek / tor gartentor / portail
window [] = window windows / raam ramen venster / fenster / fenetre fenetres
valve|tap|water [] = valve tap faucet / kraan klep ventiel hoofdkraan / ventil hahn hauptventil wasserhahn / robinet vanne
up|raise = up raise higher / hoger / hoher
down|lower = down lower / lager / niedriger
# up and down said of covers: open and close them
up|raise|open = - / omhoog boven / hoch rauf herauf oben / remonte remonter
down|lower|close = - / omlaag neer beneden / runter herunter unten / descends descendre
increase|raise|up = increase raise boost / verhoog verhogen verhoging / erhohe erhohen steigere steigern / augmente augmenter monte monter
decrease|lower|reduce|down = decrease reduce lower / verlaag verlagen verminder verminderen / verringere verringern senke senken reduziere reduzieren / baisse baisser diminue diminuer reduis reduire
position = position minimum maximum lowest highest halfway quarters / positie stand stelling laagste hoogste halverwege helft / position stellung niedrigste hochste halfte / minimum maximum moitie
percent|percentage = percent percentage level / procent percentage niveau / prozent stufe niveau / pourcent pourcentage
# climate
temperature = temperature temp degree degrees celsius fahrenheit / temperatuur graden graad / temperatur grad / temperature degre degres
warm|heat|temperature = warm warmer hot heat / warm warmer warmte / warm warmer heiss / chaud chaude
cold|cool|temperature = cold colder cool cooler / koud kouder koel koeler / kalt kalter kuhl kuhler / froid froide frais fraiche
thermostat|climate|heating|heater [temperature] = thermostat thermostats heating heater climate hvac radiator boiler / thermostaat thermostaten verwarming verwarmen kachel cv radiator ketel / thermostat heizung heizungen heizen heizkorper klima therme / chauffage radiateur chaudiere
airco|air|conditioning|cooling|climate [] = aircon airco ac / airco airconditioning koeling / klimaanlage kuhlung / climatisation clim climatiseur
humidity = humidity humid / vochtigheid luchtvochtigheid vocht / feuchtigkeit luftfeuchtigkeit feuchte / humidite humide
fan [speed] = fan fans ventilator / ventilator ventilatoren ventilatie / ventilator ventilatoren lufter luftung / ventilateur ventilation
# devices and places
outlet|socket|plug [] = outlet socket plug plugs / stekker stopcontact contactdoos wandcontactdoos / steckdose steckdosen stecker zwischenstecker / prise prises
switch [] = - / schakelaar / schalter
speaker [volume] = speaker speakers loudspeaker soundbar / luidspreker speaker / lautsprecher / enceinte enceintes
tv|television [volume] = tv television telly / televisie tv teevee / fernseher fernsehen fernseh / tele television
media|music|song|track [volume] = music song songs track tracks tune playlist album podcast radio / muziek liedje liedjes lied nummer nummers afspeellijst plaat film filmpje serie / musik lied lieder song titel stuck sendung wiedergabeliste film / musique chanson chansons morceau titre film
volume|sound = volume sound loudness noise / volume geluid geluidsniveau herrie lawaai / lautstarke ton larm / volume son bruit
volume|louder|up = louder / harder luider / lauter
volume|quieter|down = quieter softer / zachter stiller / leiser
mute = mute silence / dempen demp stil / stumm stummschalten stummschalte / muet sourdine
device|entity*0.7 [] = device devices appliance appliances machine machines phone computer dishwasher dryer kettle fridge freezer oven / apparaat apparaten toestel machine telefoon vaatwasser wasmachine droger waterkoker koffiezetter koelkast vriezer oven / gerat gerate maschine telefon handy spulmaschine waschmaschine trockner wasserkocher kaffeemaschine kuhlschrank backofen / appareil appareils machine telephone bouilloire cafetiere frigo four
entity|device*0.7 = entity entities / entiteit entiteiten / entitat entitaten / entite entites
sensor [] = sensor sensors detector detect detected detects vibration / sensor sensoren melder detecteren gedetecteerd detecteert waargenomen waarnemen registreert geregistreerd trilling trillingen / sensor sensoren fuhler melder erkannt erkennt registriert vibration erschutterung / capteur capteurs detecteur detecte
sensor*0.8|alarm*0.6 = smoke gas leak / rook rookmelder gas lekkage / rauch rauchmelder leck / fumee gaz fuite
state|status = state status connected disconnected online offline / status toestand verbonden / status zustand verbunden getrennt / etat statut connecte deconnecte
current|state|status = current present moment / huidige actuele momentele moment / aktuelle aktuell aktuellen derzeitige momentan moment / actuel actuelle actuellement
battery [] = battery batteries / batterij batterijen accu / batterie akku / batterie batteries pile piles
motion|presence [] = motion movement presence anyone anybody someone somebody people person / beweging aanwezigheid iemand mensen personen persoon / bewegung anwesenheit jemand irgendjemand personen person leute / mouvement presence quelqu personne personnes
energy|power|consumption = energy power consumption electricity / energie stroom verbruik stroomverbruik vermogen elektriciteit / energie strom verbrauch stromverbrauch leistung / energie electricite consommation puissance
# a room, an area (Home Assistant's, `ruimte`, `Bereich` in its Dutch and
# German) and a zone (Homey's rooms; Home Assistant's places on a map)
room|area|zone = room rooms / kamer kamers vertrek / raum zimmer / piece pieces salle
area|room|zone*0.8 = area areas / ruimte ruimtes / bereich bereiche / -
zone|room*0.8|area*0.8 = zone zones / zone zones / zone zonen / zone
floor = floor storey story / verdieping etage / etage stockwerk geschoss / etage
home|house|base*0.5 = home house / huis woning thuis / haus wohnung zuhause / maison domicile
garage [] = garage / garage garagedeur / garage garagentor / garage
camera = camera cam webcam / camera / kamera / camera
alarm|security = alarm siren burglar / alarm alarmsysteem sirene / alarm alarmanlage sirene / alarme sirene
doorbell [] = doorbell bell / deurbel bel / klingel turklingel / sonnette
robot|vacuum*0.8 [] = robot / robot / roboter / robot
vacuum|clean [] = vacuum hoover vacuuming roomba roborock deebot ecovacs neato dreame / stofzuiger stofzuigen stofzuig zuigen robotstofzuiger / staubsauger staubsaugen saugen sauge saugroboter / aspirateur aspirer
clean|vacuum = clean cleaning mop / schoonmaken poetsen dweilen reinigen / putzen reinigen reinige wischen / nettoie nettoyer nettoyage menage
base|dock|station = base dock station charger / basis basisstation laadstation oplaadstation / basis basisstation ladestation / base station chargeur
# rooms: known words keep compounds from splitting wrongly
# (`slaapkamer|lamp`, not `slaap|kamer|lamp`)
bedroom = bedroom / slaapkamer / schlafzimmer / chambre
=livingroom|lounge = lounge livingroom living / woonkamer huiskamer zitkamer / wohnzimmer / salon sejour
kitchen = kitchen / keuken / kuche / cuisine
bathroom = bathroom / badkamer / badezimmer bad / bain
hallway|hall = hallway hall corridor landing / gang hal overloop / flur diele / couloir entree
garden|yard = garden yard / tuin / garten / jardin
office|study = office study desk / kantoor werkkamer studeerkamer / buro arbeitszimmer schreibtisch / bureau
# furniture: where a thing stands (`the lamp beside the couch`)
couch|sofa = couch sofa settee / bank bankstel / - / canape
table = table / tafel eettafel / tisch esstisch / -
chair = chair armchair / stoel fauteuil / stuhl sessel / chaise
cupboard|cabinet = cupboard cabinet closet wardrobe / kast kledingkast / schrank kleiderschrank / armoire placard
mood|scene*0.8 = mood moods atmosphere / sfeer sferen stemming / stimmung stimmungen / ambiance
cosy|cozy = cosy cozy snug / gezellig knus / gemutlich / -
attic = attic / zolder / dachboden / grenier
basement|cellar = basement cellar / kelder / keller / cave
toilet = toilet wc / toilet wc / toilette wc / toilettes
diningroom = diningroom dining / eetkamer / esszimmer
mode|on*0.4 = mode modes / modus / modus / mode
nursery|kids = nursery / kinderkamer / kinderzimmer
terrace|balcony|porch = terrace balcony porch patio / terras balkon veranda / terrasse balkon veranda / terrasse balcon
# media control
pause = pause paused / pauze pauzeer pauzeren / pausiere pausieren anhalten / pause
stop|cancel|pause|off*0.6 = stop halt / stop stoppen stopzetten / stopp stoppe stoppen halt / arrete arreter stoppe stopper
resume|unpause|continue|play = resume unpause continue / hervat hervatten verder doorgaan / fortsetzen fortfahren weiter weitermachen / reprends reprendre continue continuer
play|resume = play / speel spelen afspelen / spiele spielen abspielen / joue jouer
next|skip = next skip forward / volgende volgend overslaan verder / nachste nachster nachstes nachsten uberspringe uberspringen vorspulen / suivant suivante suivantes
previous|back|replay = previous back replay rewind / vorige vorig opnieuw herhaal herhalen / vorherige vorherigen vorheriger vorheriges letzte letzten letzter wiederhole wiederholen zuruckspulen / precedent precedente
return|back = return / terug terugsturen terugkeren / zuruck zuruckschicken zuruckkehren / renvoie renvoyer retour retourne
# starting and stopping a device turns it on and off
start|begin|on*0.6 = start begin launch / start starten begin beginnen / starte starten beginne beginnen / lance lancer demarre demarrer commence
# lists, timers, time
list|todo = list lists todo checklist / lijst lijstje lijstjes takenlijst todo / liste listen aufgabenliste todo / liste listes
shopping|list = shopping groceries grocery buy purchase / boodschappen boodschappenlijst boodschappenlijstje kopen koop supermarkt / einkauf einkaufen einkaufsliste kaufen supermarkt / courses achats acheter
task|todo|item = task tasks chore chores item / taak taken klus klusje huishouden / aufgabe aufgaben haushalt / tache taches
add = add append insert / voeg toevoegen bijzetten / fuge fugen hinzufugen erganze erganzen / ajoute ajouter rajoute
complete|done|finish|check = complete done finish finished completed tick / afvinken vink voltooi voltooien afgerond afgewerkt compleet klaar gedaan / erledigt erledige erledigen abhaken hake fertig / terminer fini finie coche cocher
remove|delete = remove delete erase drop / verwijder verwijderen wis wissen schrap / entferne entfernen losche loschen streiche streichen / supprime supprimer efface effacer enleve enlever retire retirer
cancel|stop = cancel abort / annuleer annuleren afbreken / abbrechen breche storniere beende beenden / annule annuler
timer|countdown = timer timers countdown minute minutes seconds / timer timers kookwekker aftellen minuut minuten seconde seconden / timer kurzzeitwecker eieruhr countdown minute minuten sekunde sekunden / minuteur minuteurs minuterie secondes
alarm|clock = wake awake wakeup alarmclock / wekker wakker wekken / wecker aufstehen aufwachen wecken / reveil
time|clock = time clock / tijd hoelaat uur klok / uhrzeit zeit uhr spat / heure heures
date|day = date day today / datum dag vandaag / datum heute wochentag / date jour aujourd
weather|forecast = weather forecast rain raining / weer weerbericht weersverwachting regen regent regenen / wetter wettervorhersage vorhersage regen regnet regnen / meteo pluie pleut
calendar|event|appointment = calendar event events appointment meeting agenda schedule planned / agenda kalender afspraak afspraken evenement gepland / kalender termin termine veranstaltung geplant / agenda calendrier evenement reunion
broadcast|announce|message|notify|speak*0.8|say*0.8 = broadcast announce announcement message / omroepen omroep aankondigen bericht mededeling / durchsage ansage nachricht verkunde verkunden ankundigen durchsagen / annonce annoncer
speak|say|announce*0.8 = say speak aloud / zeg zeggen spreek spreken uitspreken / sag sage sagen sprich sprechen / dis dire parle parler
notification|notify|alert = notification notifications notify alert alerts / melding meldingen notificatie notificaties / benachrichtigung mitteilung meldung / notification notifications alerte
night|sleep = night sleep goodnight bedtime bed / nacht slapen welterusten / nacht schlafen bett / nuit dormir
morning|wake = morning / ochtend morgen / morgen fruh / matin
# automation and apps
automation|flow|routine|scene*0.6|script*0.6 = automation automations flow flows routine / automatisering automatiseringen routine / automatisierung automation ablauf routine / automatisation routine
# a scene or a script is run by switching it on (Home Assistant's `HassTurnOn`)
scene|automation*0.6|flow*0.6|on*0.5 = scene scenes / scenario / szene szenen / scenario
script|automation*0.6|flow*0.6|on*0.5 = script scripts / - / skript skripte / -
trigger|run|execute|activate|start = trigger run execute invoke / uitvoeren voer triggeren afvuren / ausfuhren fuhre auslosen auslose / execute executer declenche declencher
# an app (an add-on) and an integration: near, not the same
app|plugin|integration*0.6 = app apps plugin plugins addon addons / app apps applicatie applicaties toepassing / app apps anwendung erweiterung / application applications
integration|app*0.6|plugin*0.6 = integration integrations / integratie integraties / integration integrationen / integration integrations
install = install installed / installeer installeren geinstalleerd / installiere installieren installiert / installe installer
refresh|reload|update|sync = refresh reload rescan resync sync / vernieuw vernieuwen verversen herlaad herladen synchroniseren / aktualisiere aktualisieren neuladen synchronisieren / actualise actualiser recharge recharger rafraichir
restart|reboot = restart reboot rebooting / herstart herstarten herstarte / neustart neustarten / redemarre redemarrer redemarrage
backup|snapshot = backup backups / backup reservekopie / backup sicherung sicherungskopie / sauvegarde sauvegarder
photo|snapshot|image = photo photos picture pictures snapshot / foto fotos afbeelding / foto fotos bild bilder aufnahme / photo photos image
group = group groups / groep groepen / gruppe gruppen / groupe groupes
category = category categories / categorie categorieen / kategorie kategorien / categorie categories
theme = theme themes / thema themas / thema themen / theme themes
resource = resource resources / bron bronnen / ressource ressourcen quelle quellen / ressource ressources
template = template templates / sjabloon sjablonen / vorlage vorlagen / modele modeles
card = card cards / kaart kaarten kaartje / karte karten / carte cartes
# voice assistants and what is exposed to them, the newest version
voice|speech = voice speech spoken / spraak gesproken / sprache stimme gesprochen / voix vocal vocale
assistant = - / assistent assistenten / assistent assistenten / assistante
expose|exposure|visible = exposed exposure visible visibility / blootstellen blootgesteld blootstelling zichtbaar zichtbaarheid / freigeben freigegeben freigabe sichtbar sichtbarkeit / expose exposer
hide|hidden = hide hidden / verberg verbergen verborgen onzichtbaar / verstecke verstecken versteckt ausblenden unsichtbar / masquer masque
latest|newest = latest newest / nieuwste / neueste neuesten neuester neuestes / dernier derniere
import = - / importeer importeren geimporteerd / importiere importieren importiert / importer importe
helper = helper helpers / hulpmiddel hulpmiddelen hulp hulpje hulpjes / helfer hilfsmittel / -
# kinds of helpers, a zone's radius, repairs
counter = counter counters / teller tellers / - / -
input = input / invoer invoerveld invoervelden / eingabe eingabefeld eingabefelder / saisie
radius = radius / straal / radius / rayon
repair = repair repairs / reparatie reparaties / reparatur reparaturen / reparation reparations
ignore|skip|dismiss = ignore ignored / negeer negeren genegeerd / ignoriere ignorieren ignoriert / ignorer ignore
# a thing moved to a room is assigned to it
assign|move = assign assigned / toewijzen toegewezen verplaats verplaatsen / zuweisen zugewiesen zuordnen zugeordnet verschiebe verschieben / assigner attribuer deplacer deplace
pair|join = pair pairing / koppel koppelen koppeling / koppeln koppele kopple anlernen / appairer jumeler
service|action = service services / dienst diensten / dienst dienste / service services
# the history of values and the log of messages: near, not the same
history|historical|insight|log*0.6 = history historical trend trends insight insights / geschiedenis historie verloop inzicht inzichten / verlauf geschichte historie statistik / historique
log|logbook|history*0.6 = log logs logbook logfile logfiles / logboek logbestand logbestanden / protokoll protokolle logbuch logdatei logdateien / journal journaux
crash|error*0.6|health*0.6 = crash crashes crashed crashing / crash crasht crashen vastgelopen / absturz absturze absturzt abgesturzt / plantage plante
network|connection|diagnostic|drop*0.8|radio*0.6|zigbee*0.6|mesh*0.6 = unavailable unreachable unresponsive dropout dropouts / onbereikbaar onbeschikbaar / unerreichbar erreichbar nichterreichbar / injoignable
name|rename*0.6 = name names / naam namen benaming / namen bezeichnung / nom
trace|debug = trace traces tracing debug debugging troubleshoot diagnose / traceren tracering spoor sporen debuggen foutopsporing / ablaufverfolgung debuggen fehlersuche / debogage diagnostic
get|list|show = show display get fetch retrieve view / toon tonen geef bekijk bekijken / zeige zeigen zeig gib anzeigen hole holen / affiche afficher montre montrer donne
check|inspect = check verify inspect / controleer controleren / prufe prufen kontrolliere kontrollieren / verifie verifier
health = health healthy / gezondheid / gesundheit / sante
overview|summary = overview summary / overzicht samenvatting / ubersicht zusammenfassung / apercu
search|find = search find lookup locate / zoek zoeken vind vinden / suche suchen finde finden / cherche chercher trouve trouver recherche
set|change|adjust = set put change adjust modify configure / zet zetten stel stellen instellen verander veranderen wijzig wijzigen aanpassen draai draaien / setze setzen setz stelle stellen stell einstellen andere andern verstelle verstellen dreh drehe drehen / mets mettre regle regler change changer modifie modifier
# the web and a browser
website|url|page*0.8|link*0.6 = website websites site sites webpage webpages homepage / webpagina webpaginas pagina paginas webadres / webseite webseiten internetseite seite seiten / site
navigate|visit|browse|open*0.5 = navigate visit browse surf / bezoek bezoeken navigeer navigeren surfen / besuche besuchen navigiere navigieren surfe surfen / visite visiter naviguer
web|internet = internet web / - / - / -
screenshot|capture|image*0.6 = screenshot screenshots screengrab printscreen / schermafbeelding schermafdruk schermopname / bildschirmfoto bildschirmaufnahme / capture
tab = tab tabs / tabblad tabbladen / registerkarte reiter / onglet onglets
select|choose|option*0.6 = choose pick / kies kiezen selecteer selecteren / wahle wahlen auswahlen / choisis choisir
dropdown|option|select*0.6 = dropdown combobox picklist / keuzelijst keuzemenu uitklapmenu / auswahlliste / -
wait = wait waiting / wacht wachten / warte warten / attends attendre
press|key = press / druk drukken / druck drucke drucken / appuie appuyer
key|keyboard = key keys keyboard enter escape esc backspace / toets toetsen toetsenbord / taste tasten tastatur eingabetaste / touche clavier
click = click / klik klikken / klick klicke klicken / clique cliquer
type|enter|fill*0.6 = - / typ typen intypen / tippe tippen eintippen / tape taper
upload = upload uploads / uploaden / hochladen / televerser
javascript|script*0.6|evaluate*0.6|code = javascript js / - / - / -
size|resize|width*0.5|height*0.5 = size resize smaller bigger larger / grootte formaat / grosse grosser / taille
# software (GitHub and other developer catalogs)
pull request = pr prs mr / - / -
repository|repo = repo repos repository repositories project / repository opslagplaats / repository / depot
issue|bug|ticket = issue issues bug bugs ticket tickets / issue probleem / issue problem
error|fault|issue*0.5 = error errors fault faults / fout fouten foutmelding foutmeldingen storing storingen / fehler fehlermeldung fehlermeldungen storung storungen / erreur erreurs panne
comment|reply = comment comments reply remark / opmerking reactie commentaar / kommentar antwort / commentaire
branch = branch branches / tak branch / zweig branch / branche
merge = merge / samenvoegen mergen / zusammenfuhren mergen / fusionne fusionner
file|content = file files content contents / bestand bestanden inhoud / datei dateien inhalt / fichier fichiers
directory|folder|tree = directory folder tree / map mappen folder / ordner verzeichnis
create|new|add = create new / aanmaken nieuw nieuwe creeer creeren / erstelle erstellen neu neue anlegen / cree creer nouveau nouvelle
update|edit|change = update edit / bewerk bewerken bijwerken / bearbeite bearbeiten / edite editer
rename|name|update*0.6 = rename renamed / hernoem hernoemen hernoemd / umbenennen benenne umbenannt / renomme renommer
read|get = read / lees lezen / lies lesen / lis lire
user|me|profile|account = user users profile account whoami / gebruiker profiel account / benutzer profil konto / utilisateur profil compte
release|version = release releases version / versie uitgave / version veroffentlichung / version
label|tag = label labels tag tags / label etiket / label etikett schlagwort / etiquette
workflow|action = workflow workflows pipeline ci build builds / pijplijn / pipeline
vulnerability|security|advisory|alert = vulnerability vulnerabilities cve security advisory / kwetsbaarheid beveiliging lek / schwachstelle sicherheit sicherheitslucke
secret|token|credential = secret secrets token credential credentials password / geheim wachtwoord / geheimnis passwort
organization|org = organization organisation org orgs company / organisatie / organisation / organisation
discussion = discussion discussions forum / discussie / diskussion
review = review reviews reviewer / beoordeling beoordelen / uberprufung / relecture
commit|change = commit commits changeset / wijziging wijzigingen / anderung anderungen
";

/// Separable verbs, one a line: `particle: verb roots = expansion`. A
/// separable verb is a particle plus a verb whose folded form is one of the
/// roots and a short ending, either apart (`zet de lamp aan`) or joined
/// (`aanzetten`, `ausgeschaltet`). Dutch roots come in both spellings where
/// the vowel doubles (`haal`/`halen`).
const SEPARABLE: &str = r"
# Dutch
aan: zet doe schakel knip draai kan gaan ga = turn on
uit: zet doe schakel knip draai gaan ga = turn off
in: schakel = turn on
in: stel = set|change|adjust
bij: stel werk = set|change|adjust
aan: maak mak leg = create|new|add
aan: pas = set|change|adjust
weg: gooi haal hal doe = remove|delete
zien: laat lat = get|list|show
open: doe zet draai maak mak schuif schuiv = open
dicht: doe zet draai maak mak schuif schuiv trek = close|shut
toe: doe trek = close|shut
toe: voeg = add
toe: wijs wijz = assign|move
af: vink haal hal streep strep = complete|done|finish|check
door: streep strep haal hal = complete|done|finish|check
af: sluit = lock|close*0.5|on*0.5
slot: doe zet draai = lock|close*0.5|on*0.5
slot: haal hal = unlock|open*0.5|off*0.5
af: zet = turn off
af: spel speel = play|resume
af: breek brek = cancel|stop
over: sla = next|skip
terug: stuur stur keer ker ga rij breng spoel = return|back|previous
om: roep = broadcast|announce|message|notify
neer: laat lat doe zet = down|lower|close
omhoog: doe zet draai trek = up|raise|open
omlaag: doe zet draai trek = down|lower|close
op: ruim zuig = clean|vacuum
op: trek haal hal = up|raise|open
uit: voer = trigger|run|execute|activate|start
vast: loop lop = crash|error*0.6|health*0.6
weg: val vall = network|connection|diagnostic|drop*0.8
in: vul typ = type|enter|fill*0.6
# German
an: schalt mach knips dreh stell = turn on
ein: schalt knips mach = turn on
aus: schalt mach knips dreh stell = turn off
ab: schalt dreh stell mach = turn off
ein: stell = set|change|adjust
auf: mach dreh zieh fahr = open
zu: mach dreh zieh fahr = close|shut
auf: schliess sperr = unlock|open*0.5|off*0.5
zu: schliess sperr = lock|close*0.5|on*0.5
ab: schliess = lock|close*0.5|on*0.5|complete*0.5
ab: hak = complete|done|finish|check
durch: streich = complete|done|finish|check
hoch: mach fahr zieh dreh stell = up|raise|open
rauf: mach fahr zieh dreh = up|raise|open
herauf: mach fahr zieh dreh = up|raise|open
runter: mach fahr lass zieh dreh stell = down|lower|close
herunter: mach fahr lass zieh dreh = down|lower|close
fort: setz fahr = resume|unpause|continue|play
weiter: spiel mach lauf lass = resume|unpause|continue|play
hinzu: fug = add
zu: weis ordn = assign|move
zuruck: schick fahr geh kehr spring hol spul = return|back|previous
durch: sag geb gib = broadcast|announce|message|notify
bekannt: geb gib mach = broadcast|announce|message|notify
an: halt = pause
ab: brech = cancel|stop
ab: spiel = play|resume
vor: spul spring = next|skip
an: leg = create|new|add
an: zeig = get|list|show
weg: mach werf wirf nimm nehm schmeiss tu = remove|delete
aus: fuhr = trigger|run|execute|activate|start
ab: sturz = crash|error*0.6|health*0.6
aus: fall = network|connection|diagnostic|drop*0.8
ein: geb gib tipp trag = type|enter|fill*0.6
hoch: lad = upload
# English phrasal verbs whose words alone say little
on: switch power flip = turn on
off: switch power flip shut = turn off
off: check tick cross = complete|done|finish|check
back: go skip jump = previous|back|replay
up: light power fire = turn on
out: light = turn off
up: look = search|find
up: turn crank = increase|raise|up
down: turn = decrease|lower|reduce|down
";

/// Needs said as a feeling or an observation, and what answers them, one a
/// line: `act expansion = English / Dutch / German / French` words (`act`:
/// `change` or `read`). Read in statements only (`I'm cold`, `het is hier
/// te donker`, `mir ist zu laut`), never in questions or commands, and
/// never by the index: `cold` in a question asks about the temperature, in
/// a statement for the heating. Words are matched as they are written
/// (inflections listed): `leiser` commands what `zu leise` asks the
/// opposite of.
const NEEDS: &str = r"
# cold: heat up; hot: cool down
change heat|heating|heater|thermostat|climate temperature|warm*0.5 = cold chilly freezing frozen icy / koud kil ijskoud steenkoud / kalt eiskalt frostig friere frieren / froid glacial
change cool|cooling|airco|fan|thermostat|climate temperature = hot warm boiling sweltering sweating / warm heet bloedheet / warm heiss schwitze / chaud
# dark, nothing to see: light on; too bright, the sun in the eyes: dim, close the covers
change light|lamp on = dark pitch gloomy see / donker duister schemerig zie zien / dunkel finster duster seh sehe sehen / sombre vois voir
change dim|brightness light|curtain*0.7|blind*0.7|shade*0.7|cover*0.7 = bright glaring blinding dazzling / fel verblindend / hell grell blendet / eblouissant
change curtain|blind|shade|shutter|cover|awning close|down|position*0.6 = sun sunlight sunshine / zon zonlicht / sonne sonnenlicht / soleil
# stuffy: air the room
change fan|ventilation|window*0.6 on|open*0.6 = stuffy stale muggy airless / benauwd bedompt muf broeierig / stickig muffig / etouffant
# too loud: volume down; not heard: volume up
change volume|sound down|lower|decrease|quieter = loud noisy blasting deafening / hard luid lawaaierig / laut nervt / bruyant
change volume|sound up|raise|increase|louder = hear quiet faint / hoor horen versta verstaan zacht / hore horen verstehe verstehen leise / entends entendre
# dirty floors: vacuum
change vacuum|clean = dirty dusty crumbs messy filthy / vies vuil smerig kruimels / dreckig schmutzig staubig krumel / sale
# out of something: on the shopping list
change shopping|list|todo add = out_of / is_op zijn_op / ausgegangen ist_alle sind_alle / -
# slow: the system's health
read health|performance|memory|system network*0.6 = slow sluggish laggy / traag langzaam sloom / langsam trage / lent
";

/// A weight written `0.6` (digits, one optional point), without the
/// float parser: `1.0` when it is not one.
fn parse_weight(s: &str) -> f32 {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || int.len() + frac.len() > 6 {
        return 1.0;
    }
    let mut v = 0f32;
    for b in int.bytes() {
        v = v * 10.0 + f32::from(b - b'0');
    }
    let mut scale = 1.0f32;
    for b in frac.bytes() {
        scale /= 10.0;
        v += f32::from(b - b'0') * scale;
    }
    v
}

/// The rows of [`ROWS`]: expansion, then English, Dutch, German and
/// French words (`-` when a row has no French list).
fn rows() -> impl Iterator<Item = (&'static str, [&'static str; 4])> {
    ROWS.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (exp, rest) = l.split_once(" = ")?;
            let mut lists = rest.split(" / ");
            let (en, nl, de) = (lists.next()?, lists.next()?, lists.next()?);
            Some((exp, [en, nl, de, lists.next().unwrap_or("-")]))
        })
}

/// The words of a row's list.
fn list_words(list: &'static str) -> impl Iterator<Item = &'static str> {
    list.split_whitespace().filter(|w| *w != "-")
}

/// The rows of [`NEEDS`]: act, expansion, then English, Dutch, German and
/// French words.
fn need_rows() -> impl Iterator<Item = (u8, &'static str, [&'static str; 4])> {
    NEEDS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (head, rest) = l.split_once(" = ")?;
            let (act, exp) = head.split_once(' ')?;
            let act = if act == "read" { READ } else { CHANGE };
            let mut lists = rest.split(" / ");
            let (en, nl, de) = (lists.next()?, lists.next()?, lists.next()?);
            Some((act, exp, [en, nl, de, lists.next().unwrap_or("-")]))
        })
}

/// The rows of [`SEPARABLE`]: particle, roots, expansion.
fn separables() -> impl Iterator<Item = (&'static str, Vec<&'static str>, &'static str)> {
    SEPARABLE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (head, exp) = l.split_once(" = ")?;
            let (p, roots) = head.split_once(": ")?;
            Some((p, roots.split_whitespace().collect(), exp))
        })
}

/// An expansion, parsed and stemmed.
#[derive(Debug)]
pub(crate) struct Expansion {
    /// Whether the expansion replaces the query word's own term (`=` in
    /// the row: `living` means the room, not `live`).
    pub(crate) replace: bool,
    /// Groups of alternative English stems with their weights (`on*0.7`).
    pub(crate) groups: Vec<Vec<(String, f32)>>,
    /// The act of a word that means this, used as a verb (see
    /// [`super::act`]): the act of the expansion's first word.
    pub(crate) act: u8,
    /// What the expansion says, for reading pairs of words together
    /// ([`SOUND`], [`ON`], [`OFF`], [`START`]).
    pub(crate) senses: u16,
    /// The English stem of the quantity a thing is set by (`[position]`
    /// in the row: a cover is set to a percentage by its position, a
    /// light by its brightness, a speaker by its volume); empty for a
    /// thing in the home set by nothing in particular (`[]`: a door).
    pub(crate) quantity: Option<String>,
}

/// The sound (volume) of something: with [`OFF`] it is muted.
pub(crate) const SOUND: u16 = 1;
/// Switched on.
pub(crate) const ON: u16 = 2;
/// Switched off.
pub(crate) const OFF: u16 = 4;
/// Started: with `again` (`opnieuw`, `neu`) it is restarted.
pub(crate) const START: u16 = 8;
/// Set (`zet`, `setze`, `mets`): with a [`LIST`], put on the list, added.
pub(crate) const SET: u16 = 32;
/// A list: what is set on it is added.
pub(crate) const LIST: u16 = 64;
/// A place (a room, an area, the house): where something is, never the
/// thing a command is about.
pub(crate) const PLACE: u16 = 16;
/// Says how much: a percentage, a position, degrees, more or less of
/// something (a thing's quantity goes with it: see
/// [`Expansion::quantity`]).
pub(crate) const AMOUNT: u16 = 128;
/// A thing in the home (a light, a door, a speaker, a sensor): a question
/// about it asks about a device's state.
pub(crate) const THING: u16 = 256;
/// Something seen (a camera, a picture, a snapshot): a question that says
/// it asks for one.
pub(crate) const VISUAL: u16 = 512;
/// What goes wrong (a crash, a device out of reach): a question why that
/// says it is about that, more than about traces and logs.
pub(crate) const TROUBLE: u16 = 1024;

impl Expansion {
    fn parse(exp: &str, stemmers: &Stemmers) -> Expansion {
        let (replace, exp) = match exp.strip_prefix('=') {
            Some(rest) => (true, rest),
            None => (false, exp),
        };
        let (exp, quantity) = match exp.split_once(" [") {
            Some((e, q)) => (e, Some(stemmers.stem(Lang::En, q.trim_end_matches(']')))),
            None => (exp, None),
        };
        let groups = exp
            .split(' ')
            .map(|g| {
                g.split('|')
                    .map(|alt| {
                        let (word, weight) = match alt.split_once('*') {
                            Some((w, x)) => (w, parse_weight(x)),
                            None => (alt, 1.0),
                        };
                        (stemmers.stem(Lang::En, word), weight)
                    })
                    .collect()
            })
            .collect();
        let head = exp.split(['|', ' ', '*']).next().unwrap_or("");
        let act = verb_category(head).map_or(0, act_of_category);
        let mut senses = 0;
        for alt in exp.split([' ', '|']) {
            senses |= match alt {
                "sound" => SOUND,
                "on" => ON,
                "off" => OFF,
                "start" => START,
                "set" => SET,
                "list" => LIST,
                "room" | "area" | "home" | "floor" | "bedroom" | "livingroom" | "kitchen"
                | "bathroom" | "hallway" | "garden" | "office" | "attic" | "basement"
                | "toilet" | "diningroom" | "nursery" | "terrace" => PLACE,
                "percent" | "position" | "increase" | "decrease" | "louder" | "quieter"
                | "temperature" => AMOUNT,
                "camera" | "photo" | "screenshot" => VISUAL,
                "crash" | "network" => TROUBLE,
                _ => 0,
            };
        }
        // a thing in the home: a row with a quantity, if only `[]`
        if quantity.is_some() {
            senses |= THING;
        }
        Expansion {
            replace,
            groups,
            act,
            senses,
            quantity,
        }
    }
}

/// The lexicon, indexed once: by folded surface form and by stem.
pub(crate) struct Lexicon {
    /// Surface words in row order, each with its expansion.
    surface: Strings,
    surface_exp: Vec<u32>,
    /// The same words with their letter masks, for typo search.
    keys: Vec<(&'static str, u32)>,
    /// English, Dutch, German and French stems, each with its expansion.
    stems: [(Strings, Vec<u32>); 4],
    expansions: Vec<Expansion>,
    separable: Vec<(&'static str, Vec<&'static str>, u32)>,
    /// The words of needs ([`NEEDS`]), each with its expansion.
    needs: Strings,
    need_exp: Vec<u32>,
    /// The words of the home's names with a finer meaning (see
    /// `entities::WORDS`), each with it.
    home: Strings,
    home_meaning: Vec<&'static str>,
    /// The first letter of each row's particle, for a quick test.
    firsts: Vec<u8>,
    /// [`STOPWORDS`], hashed.
    stopwords: Strings,
    /// The first 4 chars (or fewer) of every Dutch and German stem key, and
    /// of every French one: a word whose start is not here has no such
    /// stem to find.
    stem_starts: [Strings; 2],
}

/// Verb endings allowed after a separable verb's root (`zet|ten`,
/// `schalt|est`): at most this many chars.
const MAX_VERB_ENDING: usize = 4;

/// The first `n` chars of `w`.
fn first_chars(w: &str, n: usize) -> &str {
    let end = w.char_indices().nth(n).map_or(w.len(), |(i, _)| i);
    w.get(..end).unwrap_or(w)
}

impl Lexicon {
    fn build() -> Lexicon {
        let stemmers = Stemmers::new();
        let mut expansions: Vec<Expansion> = Vec::new();
        let mut ids = Strings::default();
        let mut intern = |exp: &'static str| -> u32 {
            let (id, new) = ids.insert(exp);
            if new {
                expansions.push(Expansion::parse(exp, &stemmers));
            }
            id
        };
        // in the order of the rows, the same on every platform
        let mut surface = Strings::default();
        let mut surface_exp = Vec::new();
        let mut keys = Vec::new();
        let mut stems: [(Strings, Vec<u32>); 4] = Default::default();
        for (exp, [en, nl, de, fr]) in rows() {
            let id = intern(exp);
            for (li, (lang, list)) in [
                (Lang::En, en),
                (Lang::Nl, nl),
                (Lang::De, de),
                (Lang::Fr, fr),
            ]
            .into_iter()
            .enumerate()
            {
                for w in list_words(list) {
                    if surface.insert(w).1 {
                        surface_exp.push(id);
                        keys.push((w, letter_mask(w)));
                    }
                    // a replacing row means these exact words only
                    let s = stemmers.stem(lang, w);
                    // short stems of other languages would catch English words
                    // (German `offen` → `off`)
                    let min = if li == 0 { 3 } else { 4 };
                    if s.len() >= min && !exp.starts_with('=') {
                        if let Some((map, exps)) = stems.get_mut(li) {
                            if map.insert(&s).1 {
                                exps.push(id);
                            }
                        }
                    }
                }
            }
        }
        let separable: Vec<_> = separables()
            .map(|(p, roots, exp)| (p, roots, intern(exp)))
            .collect();
        let mut needs = Strings::default();
        let mut need_exp = Vec::new();
        for (act, exp, lists) in need_rows() {
            let mut e = Expansion::parse(exp, &stemmers);
            e.act = act;
            let id = u32::try_from(expansions.len()).unwrap_or(u32::MAX);
            expansions.push(e);
            for w in lists.into_iter().flat_map(list_words) {
                if needs.insert(w).1 {
                    need_exp.push(id);
                }
            }
        }
        let firsts = separable
            .iter()
            .map(|(p, _, _)| p.bytes().next().unwrap_or(0))
            .collect();
        let mut stem_starts: [Strings; 2] = Default::default();
        for (li, (map, _)) in stems.iter().enumerate().skip(1) {
            let starts = &mut stem_starts[usize::from(li == 3)];
            for k in map.iter() {
                starts.insert(first_chars(k, 4));
            }
        }
        let mut home = Strings::default();
        let mut home_meaning = Vec::new();
        for (meaning, list) in super::entities::WORDS
            .lines()
            .filter_map(|l| l.split_once(": "))
        {
            for x in list.split(' ') {
                if home.insert(x).1 {
                    home_meaning.push(meaning);
                }
            }
        }
        Lexicon {
            home,
            home_meaning,
            surface,
            surface_exp,
            keys,
            stems,
            expansions,
            separable,
            needs,
            need_exp,
            firsts,
            stopwords: {
                let mut set = Strings::default();
                for w in STOPWORDS {
                    set.insert(w);
                }
                set
            },
            stem_starts,
        }
    }

    /// The lexicon, built on first use.
    pub(crate) fn get() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(Lexicon::build)
    }

    fn expansion(&self, id: u32) -> Option<&Expansion> {
        self.expansions.get(id as usize)
    }

    fn by_surface(&self, word: &str) -> Option<Option<&Expansion>> {
        let id = self.surface.find(word)?;
        Some(
            self.surface_exp
                .get(id as usize)
                .and_then(|&e| self.expansion(e)),
        )
    }

    fn by_stem(&self, lang: usize, stem: &str) -> Option<&Expansion> {
        let (map, exps) = self.stems.get(lang)?;
        let id = map.find(stem)?;
        exps.get(id as usize).and_then(|&e| self.expansion(e))
    }

    /// The expansion of a folded word: by surface form, then by its stem in
    /// each language (`stems` = the word's English, Dutch, German, French
    /// stems).
    pub(crate) fn lookup(&self, word: &str, stems: &[String; 4]) -> Option<&Expansion> {
        if let Some(e) = self.by_surface(word) {
            return e;
        }
        stems
            .iter()
            .enumerate()
            .find_map(|(lang, s)| self.by_stem(lang, s))
    }

    /// [`Lexicon::lookup`] with the word's English stem given and the
    /// Dutch, German and French stems computed only when needed.
    pub(crate) fn lookup_lazy(
        &self,
        word: &str,
        en: &str,
        stemmers: &Stemmers,
    ) -> Option<&Expansion> {
        self.lookup_in(word, en, stemmers, true)
    }

    /// [`Lexicon::lookup_lazy`] for the index: a catalog is written in
    /// English (and sometimes Dutch or German), where French stems would
    /// only catch English words.
    pub(crate) fn lookup_index(
        &self,
        word: &str,
        en: &str,
        stemmers: &Stemmers,
    ) -> Option<&Expansion> {
        self.lookup_in(word, en, stemmers, false)
    }

    fn lookup_in(
        &self,
        word: &str,
        en: &str,
        stemmers: &Stemmers,
        french: bool,
    ) -> Option<&Expansion> {
        if let Some(e) = self.by_surface(word) {
            return e;
        }
        if let Some(e) = self.by_stem(0, en) {
            return Some(e);
        }
        // stems only cut a word's end: no stem key starts like this word,
        // no stem of it is a key
        let start = first_chars(word, 4);
        let [nl_de, fr] = &self.stem_starts;
        if nl_de.contains(start) {
            let found = [(1, Lang::Nl), (2, Lang::De)]
                .into_iter()
                .find_map(|(i, lang)| self.by_stem(i, &stemmers.stem(lang, word)))
                // a Dutch imperative is the infinitive less `en`, which
                // the stemmer does not always undo (`ververs`: `verversen`)
                .or_else(|| {
                    let infinitive = format!("{word}en");
                    self.by_stem(1, &stemmers.stem(Lang::Nl, &infinitive))
                });
            if found.is_some() {
                return found;
            }
        }
        if french && fr.contains(start) {
            return self.by_stem(3, &stemmers.stem(Lang::Fr, word));
        }
        None
    }

    /// The act of a folded word used as a verb (`verwijder`, `lösche`,
    /// `supprime` delete; `toon` reads), by its lexicon row, else by the
    /// word itself; 0 for a word that is not a verb.
    pub(crate) fn verb_act(&self, word: &str, en: &str, stemmers: &Stemmers) -> u8 {
        let exp = self
            .separable_joined(word)
            .or_else(|| self.lookup_lazy(word, en, stemmers));
        self.verb_act_read(word, en, exp)
    }

    /// [`Lexicon::verb_act`] of a word whose English stem and expansion
    /// are known.
    pub(crate) fn verb_act_read(&self, word: &str, en: &str, exp: Option<&Expansion>) -> u8 {
        if self.is_stopword(word) {
            return 0;
        }
        match exp.map_or(0, |e| e.act) {
            0 => verb_category(word)
                .or_else(|| verb_category(en))
                .map_or(0, act_of_category),
            row => row,
        }
    }

    /// [`super::analyze::is_stopword`] by hash rather than by binary search.
    pub(crate) fn is_stopword(&self, word: &str) -> bool {
        self.stopwords.contains(word)
    }

    /// The need a folded word says in a statement (`cold`, `donker`,
    /// `laut`: see [`NEEDS`]), with the act that answers it.
    pub(crate) fn need(&self, word: &str) -> Option<&Expansion> {
        let id = self.needs.find(word)?;
        self.need_exp
            .get(id as usize)
            .and_then(|&e| self.expansion(e))
    }

    /// The finer meaning of a word of the home's names (`voordeur`:
    /// `frontdoor`), when it has one.
    pub(crate) fn home_word(&self, w: &str) -> Option<&'static str> {
        self.home
            .find(w)
            .and_then(|i| self.home_meaning.get(i as usize))
            .copied()
    }

    /// Whether the folded word is a lexicon word (for compound splitting).
    pub(crate) fn knows(&self, word: &str) -> bool {
        self.surface.contains(word)
    }

    /// Every surface word with its letter mask.
    pub(crate) fn keys(&self) -> &[(&'static str, u32)] {
        &self.keys
    }

    /// The surface word at `i` in [`Lexicon::keys`] order.
    pub(crate) fn key_at(&self, i: usize) -> Option<&'static str> {
        self.keys.get(i).map(|&(k, _)| k)
    }

    /// Whether the word is an English particle: it comes right after its
    /// verb and before the object (`turn off the light`), so a determiner
    /// after it does not make it a preposition.
    pub(crate) fn is_english_particle(&self, word: &str) -> bool {
        matches!(word, "on" | "off" | "up" | "out" | "back")
    }

    /// Whether the word is a separable particle (`aan`, `aus`, ...).
    pub(crate) fn is_particle(&self, word: &str) -> bool {
        self.separable.iter().any(|(p, _, _)| *p == word)
    }

    /// The expansion of `particle` + `verb` written apart, when `verb` is
    /// one of the particle's roots plus a short ending.
    pub(crate) fn separable_pair(&self, particle: &str, verb: &str) -> Option<&Expansion> {
        self.separable
            .iter()
            .filter(|(p, _, _)| *p == particle)
            .find(|(_, roots, _)| roots.iter().any(|r| is_root_of(r, verb)))
            .and_then(|&(_, _, id)| self.expansion(id))
    }

    /// The expansion of a joined separable verb: particle, an optional
    /// `ge`/`zu` (participle, zu-infinitive), then a root and a short
    /// ending (`aanzetten`, `ausgeschaltet`, `einzuschalten`).
    pub(crate) fn separable_joined(&self, word: &str) -> Option<&Expansion> {
        if word.len() < 5 {
            return None;
        }
        let first = word.bytes().next().unwrap_or(0);
        self.firsts
            .iter()
            .zip(&self.separable)
            // most rows differ in the first letter: a cheap test first
            .filter(|&(&f, _)| f == first)
            .map(|(_, row)| row)
            .find(|(p, roots, _)| {
                word.strip_prefix(p).is_some_and(|rest| {
                    let rest_options =
                        [Some(rest), rest.strip_prefix("ge"), rest.strip_prefix("zu")];
                    rest_options
                        .into_iter()
                        .flatten()
                        .any(|r| roots.iter().any(|root| is_root_of(root, r)))
                })
            })
            .and_then(|&(_, _, id)| self.expansion(id))
    }
}

/// Whether the folded word means `again`: with a word that starts
/// something, it restarts it (`opnieuw opstarten`, `neu starten`).
pub(crate) fn is_again(word: &str) -> bool {
    matches!(word, "again" | "opnieuw" | "neu" | "wieder" | "nouveau")
}

/// Whether `word` is `root` plus an ending of at most [`MAX_VERB_ENDING`]
/// chars.
fn is_root_of(root: &str, word: &str) -> bool {
    word.strip_prefix(root)
        .is_some_and(|ending| ending.chars().count() <= MAX_VERB_ENDING)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::analyze::fold;

    fn stems_of(w: &str) -> [String; 4] {
        let s = Stemmers::new();
        [
            s.stem(Lang::En, w),
            s.stem(Lang::Nl, w),
            s.stem(Lang::De, w),
            s.stem(Lang::Fr, w),
        ]
    }

    fn exp(e: Option<&Expansion>) -> String {
        e.map(|e| {
            let groups = e
                .groups
                .iter()
                .map(|alts| {
                    alts.iter()
                        .map(|(a, w)| {
                            if *w == 1.0 {
                                a.clone()
                            } else {
                                format!("{a}*{w}")
                            }
                        })
                        .collect::<Vec<_>>()
                        .join("|")
                })
                .collect::<Vec<_>>()
                .join(" ");
            if e.replace {
                format!("={groups}")
            } else {
                groups
            }
        })
        .unwrap_or_default()
    }

    #[test]
    fn every_line_parses_and_words_are_folded_and_unique() {
        let lines = |text: &str| {
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .count()
        };
        assert_eq!(rows().count(), lines(ROWS));
        assert_eq!(separables().count(), lines(SEPARABLE));
        assert!(separables().all(|(p, roots, _)| !p.is_empty() && !roots.is_empty()));
        // a word in two rows (in any language: a word is found by its
        // surface form first) would silently lose a meaning
        let mut seen: std::collections::HashMap<&str, &str> = Default::default();
        for (exp, lists) in rows() {
            assert!(!exp.is_empty());
            for list in lists {
                for w in list_words(list) {
                    assert_eq!(fold(w), w, "{w} is not folded");
                    let dup = seen.insert(w, exp).is_some_and(|e| e != exp);
                    // a few words are listed twice on purpose, in rows that agree
                    let allowed = matches!(w, "rollladen" | "verder" | "lower" | "raise");
                    assert!(!dup || allowed, "{w} is in two rows");
                }
            }
        }
    }

    #[test]
    fn parses_weights() {
        assert_eq!(parse_weight("0.6"), 0.6);
        assert_eq!(parse_weight("2"), 2.0);
        assert_eq!(parse_weight("1.25"), 1.25);
        for bad in ["", ".5", "x", "1.2.3", "-1", "1234567"] {
            assert_eq!(parse_weight(bad), 1.0, "{bad}");
        }
    }

    #[test]
    fn finds_words_by_surface_and_stem() {
        let lex = Lexicon::get();
        assert_eq!(exp(lex.lookup("lampen", &stems_of("lampen"))), "light|lamp");
        assert_eq!(exp(lex.lookup("lampe", &stems_of("lampe"))), "light|lamp");
        assert_eq!(
            exp(lex.lookup("verwarming", &stems_of("verwarming"))),
            "thermostat|climat|heat|heater"
        );
        assert_eq!(exp(lex.lookup("pr", &stems_of("pr"))), "pull request");
        assert_eq!(
            exp(lex.lookup("woonkamer", &stems_of("woonkamer"))),
            "=livingroom|loung"
        );
        assert!(lex.lookup("rover", &stems_of("rover")).is_none());
        let s = Stemmers::new();
        let ververs = lex.lookup_lazy("ververs", &s.stem(Lang::En, "ververs"), &s);
        assert_eq!(exp(ververs), "refresh|reload|updat|sync");
        assert!(lex.knows("thermostaat"));
    }

    #[test]
    fn stopwords_by_hash_and_by_search_agree() {
        let lex = Lexicon::get();
        for w in STOPWORDS {
            assert!(lex.is_stopword(w), "{w}");
        }
        for w in ["", "on", "light", "thee", "de ", "zurs"] {
            assert_eq!(
                lex.is_stopword(w),
                crate::search::analyze::is_stopword(w),
                "{w}"
            );
        }
    }

    #[test]
    fn reads_separable_verbs() {
        let lex = Lexicon::get();
        assert_eq!(exp(lex.separable_pair("aan", "zet")), "turn on");
        assert_eq!(exp(lex.separable_pair("aus", "schalte")), "turn off");
        assert_eq!(exp(lex.separable_pair("ein", "stelle")), "set|chang|adjust");
        assert!(lex.separable_pair("over", "slaapkamer").is_none());
        assert_eq!(exp(lex.separable_joined("aanzetten")), "turn on");
        assert_eq!(exp(lex.separable_joined("ausgeschaltet")), "turn off");
        assert_eq!(exp(lex.separable_joined("einzuschalten")), "turn on");
        assert_eq!(exp(lex.separable_joined("toevoegen")), "add");
        assert!(lex.separable_joined("another").is_none());
        assert!(lex.is_particle("uit"));
        assert!(!lex.is_particle("lamp"));
    }
}
